/// The values an option takes when they are a range, declared once: the option's
/// parser refuses the others, and `--help`, the man page and the error for a refused
/// value all state the range from this same declaration, so they cannot drift apart.
///
/// ```swift
/// static let linger = Option<Int>(
///     "--linger", value: "ms", help: "…", default: 0, range: .integers(0...60_000, "ms"))
/// ```
///
/// `--help` shows `(allowed: 0 to 60000 ms; default: 0)`; `--linger 60001` is `The value
/// '60001' is invalid for '--linger <ms>': must be a whole number, 0 to 60000 ms`.
public struct ValueRange<Value: Sendable>: Sendable, CustomStringConvertible {
    /// The range in words, e.g. `0 to 60000 ms`, `1 ms or more`.
    public let description: String
    /// What a value must be, for the error: `a whole number`, `a number of seconds`.
    let kind: String
    /// The value of the text, or `nil` when it is not one in the range.
    let read: @Sendable (String) -> Value?
    /// Why a text is not a value, when there is more to say than the range.
    let explain: @Sendable (String) -> String?
    /// A warning for a value taken that may not mean what was meant (``DurationText``).
    let warning: @Sendable (String) -> String?

    /// A range of any kind of value.
    ///
    /// - Parameters:
    ///   - description: the range in words, e.g. `0 to 1`.
    ///   - kind: what a value is, e.g. `a number` (the error says `must be a number,
    ///     0 to 1`).
    ///   - read: the value of the text, `nil` when it is not one in the range.
    ///   - explain: why a text is not a value, when there is more to say than the
    ///     range (`unknown unit 'x'`); `nil` to state the range.
    public init(
        _ description: String, kind: String, read: @escaping @Sendable (String) -> Value?,
        explain: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.init(description, kind: kind, read: read, explain: explain, warning: { _ in nil })
    }

    private init(
        _ description: String, kind: String, read: @escaping @Sendable (String) -> Value?,
        explain: @escaping @Sendable (String) -> String?, warning: @escaping @Sendable (String) -> String?
    ) {
        self.description = description
        self.kind = kind
        self.read = read
        self.explain = explain
        self.warning = warning
    }

    /// The same range, with `warning` for a value it takes that may be a mistake.
    func withWarning(_ warning: @escaping @Sendable (String) -> String?) -> ValueRange {
        ValueRange(description, kind: kind, read: read, explain: explain, warning: warning)
    }

    /// The value of `text`.
    ///
    /// - Throws: ``InvalidValue`` saying what the value must be, range included.
    public func parse(_ text: String) throws(InvalidValue) -> Value {
        guard let value = read(text) else {
            if let explanation = explain(text) { throw .because(explanation) }
            throw .expected("\(kind), \(description)", saying: "must be")
        }
        return value
    }

    /// The same range, its values turned into another type (milliseconds into a
    /// `Duration`).
    public func map<Other>(_ transform: @escaping @Sendable (Value) -> Other) -> ValueRange<Other> {
        let read = self.read
        return ValueRange<Other>(
            description, kind: kind, read: { text in read(text).map(transform) }, explain: explain, warning: warning)
    }
}

extension ValueRange where Value == Int {
    /// The whole numbers in `range`, in `unit` (`ms`, `baud`; `nil` for a count): `0 to
    /// 60000 ms`.
    public static func integers(_ range: ClosedRange<Int>, _ unit: String? = nil) -> ValueRange {
        ValueRange("\(range.lowerBound) to \(range.upperBound)" + (unit.map { " \($0)" } ?? ""), kind: "a whole number")
        {
            Int($0).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// The whole numbers from `lowerBound` up, in `unit`: `1 ms or more`.
    public static func integers(atLeast lowerBound: Int, _ unit: String? = nil) -> ValueRange {
        ValueRange("\(lowerBound)" + (unit.map { " \($0)" } ?? "") + " or more", kind: "a whole number") {
            Int($0).flatMap { $0 >= lowerBound ? $0 : nil }
        }
    }
}
