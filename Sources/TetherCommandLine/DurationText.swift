/// The one way every duration option is written: a number and a unit, `500ms`, `3s`,
/// `1.5s`, `.5s`, `2m`, `1h`, or several added, `1m30s`; a bare number is in the option's own unit (``DurationUnit``), as
/// before units were accepted. Durations are whole milliseconds (`0.4ms` is refused).
public enum DurationText {
    /// The units, longest suffix first so `ms` is not read as `m`.
    static let units: [(suffix: String, milliseconds: Double)] = [
        ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000),
    ]

    /// Why a text is not a duration.
    public enum Problem: Error, Equatable {
        case notANumber
        case unknownUnit(String)
        case notWholeMilliseconds
        case tooLong
    }

    /// The longest duration taken, in ms (about 31 700 years): longer ones would
    /// overflow `Duration` and `Int64` soon after.
    static let longest: Double = 1e15

    /// The milliseconds `text` gives, a bare number read in `bare`: one number and unit
    /// (`500ms`, `.5s`, `1.5s`) or several added (`1m30s`, `1h30m`, `2s500ms`).
    public static func milliseconds(of text: String, bare: DurationUnit) -> Result<Int64, Problem> {
        var rest = Substring(text)
        var total = 0.0
        repeat {
            let digits = rest.prefix { $0.isNumber || $0 == "." }
            rest = rest.dropFirst(digits.count)
            let suffix = rest.prefix { !$0.isNumber && $0 != "." }
            rest = rest.dropFirst(suffix.count)
            guard let number = Double(digits), digits.contains(where: \.isNumber) else { return .failure(.notANumber) }
            let scale: Double
            if suffix.isEmpty, total == 0, rest.isEmpty {
                scale = bare.milliseconds
            } else if let unit = units.first(where: { $0.suffix == suffix.lowercased() }) {
                scale = unit.milliseconds
            } else if suffix.isEmpty {
                return .failure(.notANumber)
            } else {
                // All that follows the number (`e10` of `1e10`): what was written instead of a unit.
                return .failure(.unknownUnit(String(suffix + rest)))
            }
            total += number * scale
        } while !rest.isEmpty
        guard total <= longest else { return .failure(.tooLong) }
        guard total == total.rounded() else { return .failure(.notWholeMilliseconds) }
        return .success(Int64(total))
    }

    /// `milliseconds` in the largest unit that writes it whole: `1s`, `90s`, `2m`, `24h`,
    /// `1500ms`; `0` for none.
    public static func describe(milliseconds: Int64) -> String {
        guard milliseconds != 0 else { return "0" }
        for unit in units.reversed() where milliseconds % Int64(unit.milliseconds) == 0 {
            return "\(milliseconds / Int64(unit.milliseconds))\(unit.suffix)"
        }
        return "\(milliseconds)ms"
    }

    /// `duration` as ``describe(milliseconds:)`` writes it (rounded to the millisecond).
    public static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return describe(milliseconds: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// The warning for a bare number that reads like another unit, after the option and
    /// value: `--duration 3000` `is 50m …; did you mean 3000ms (3s)?`; `nil` when it
    /// does not look so.
    static func warning(for text: String, bare: DurationUnit, warnsBelow: Int64?) -> String? {
        guard let number = Double(text), case .success(let milliseconds) = self.milliseconds(of: text, bare: bare)
        else { return nil }
        switch bare {
        case .seconds where number >= 1000:
            let asMilliseconds = describe(milliseconds: Int64(number))
            return "is \(describe(milliseconds: milliseconds)) (a bare number is seconds here);"
                + " did you mean \(text)ms (\(asMilliseconds))? Give the unit to say which"
        case .milliseconds where warnsBelow.map { milliseconds > 0 && milliseconds < $0 } ?? false:
            return "is \(text) ms (a bare number is ms here); did you mean \(text)s? Give the unit to say which"
        default:
            return nil
        }
    }
}

/// The unit of a duration option's bare number: the one it had before units were
/// accepted.
public enum DurationUnit: Sendable {
    case milliseconds, seconds

    var milliseconds: Double { self == .seconds ? 1000 : 1 }
    var name: String { self == .seconds ? "seconds" : "ms" }
}

extension ValueRange where Value == Duration {
    /// Durations from `lowerBound` to `upperBound` (`nil`: no upper bound), written as
    /// ``DurationText`` says, a bare number in `bare`; with `warnsBelow`, a bare number
    /// of ms greater than 0 and below it gets a warning (`--timeout 5` was likely 5 s).
    ///
    /// The range reads `0 to 24h; a bare number is ms`.
    public static func durations(
        _ lowerBound: Duration, to upperBound: Duration? = nil, bare: DurationUnit, warnsBelow: Int64? = nil
    ) -> ValueRange {
        let lower = DurationText.describe(lowerBound)
        let bounds = upperBound.map { "\(lower) to \(DurationText.describe($0))" } ?? "\(lower) or more"
        let range = ValueRange(
            "\(bounds); a bare number is \(bare.name)", kind: "a duration such as 500ms or 2m",
            read: { text in
                guard case .success(let milliseconds) = DurationText.milliseconds(of: text, bare: bare) else {
                    return nil
                }
                let value = Duration.milliseconds(milliseconds)
                guard value >= lowerBound, upperBound.map({ value <= $0 }) ?? true else { return nil }
                return value
            },
            explain: { text in
                switch DurationText.milliseconds(of: text, bare: bare) {
                case .failure(.unknownUnit(let unit)):
                    "unknown unit '\(unit)': write ms, s, m or h after the number (500ms, 3s, 2m)"
                case .failure(.notWholeMilliseconds): "a duration is whole milliseconds"
                case .failure(.tooLong): "too long a duration to wait for"
                default: nil
                }
            })
        return range.withWarning { text in DurationText.warning(for: text, bare: bare, warnsBelow: warnsBelow) }
    }
}

extension ValueRange where Value == Int {
    /// Durations as ``ValueRange/durations(_:to:bare:warnsBelow:)`` reads them, as whole
    /// milliseconds: for options whose value is a number of ms.
    public static func milliseconds(_ range: ClosedRange<Int>, warnsBelow: Int64? = nil) -> ValueRange {
        ValueRange<Duration>.durations(
            .milliseconds(range.lowerBound), to: .milliseconds(range.upperBound), bare: .milliseconds,
            warnsBelow: warnsBelow
        ).map(wholeMilliseconds)
    }

    /// Durations of `lowerBound` ms or more, as whole milliseconds; `warnsBelow` as
    /// ``ValueRange/durations(_:to:bare:warnsBelow:)`` takes it.
    public static func milliseconds(atLeast lowerBound: Int, warnsBelow: Int64? = nil) -> ValueRange {
        ValueRange<Duration>.durations(.milliseconds(lowerBound), bare: .milliseconds, warnsBelow: warnsBelow)
            .map(wholeMilliseconds)
    }

    @Sendable private static func wholeMilliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
