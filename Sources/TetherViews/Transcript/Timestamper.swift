import FoundationEssentials
import Synchronization

/// Writes timestamps in one ``TimestampStyle`` for one session, keeping the first and
/// the previous time the `24hour-start` and `24hour-delta` styles count from.
public final class Timestamper: Sendable {
    /// The style.
    public let style: TimestampStyle
    private let times = Mutex<(first: Date?, previous: Date?)>((nil, nil))

    /// Creates a timestamper; the first ``stamp(_:)`` starts its session.
    public init(_ style: TimestampStyle = .hour24) {
        self.style = style
    }

    /// How many characters a stamp has: 12, or 24 for ISO 8601 (longer when a
    /// session's time passes 99 hours).
    public var width: Int { style == .iso8601 ? 24 : 12 }

    /// `date` in the style; for the counting styles, also the new previous time.
    public func stamp(_ date: Date) -> String {
        let (first, previous) = times.withLock { times in
            let was = (times.first ?? date, times.previous ?? date)
            times = (was.0, date)
            return was
        }
        switch style {
        case .hour24: return TextView.timestamp(date)
        case .hour24Start: return Self.elapsed(date.timeIntervalSince(first))
        case .hour24Delta: return Self.elapsed(date.timeIntervalSince(previous))
        case .iso8601: return ISO8601Timestamp.string(date)
        }
    }

    /// `HH:mm:ss.SSS` of a span of seconds, to the nearest millisecond (0 when negative).
    static func elapsed(_ seconds: Double) -> String {
        let milliseconds = max(0, Int((seconds * 1000).rounded()))
        let (hours, minutes, whole) = (milliseconds / 3_600_000, milliseconds / 60_000 % 60, milliseconds / 1000 % 60)
        return "\(TextView.padded(hours, 2)):\(TextView.padded(minutes, 2)):\(TextView.padded(whole, 2))."
            + TextView.padded(milliseconds % 1000, 3)
    }
}
