/// How a timestamp is written (`--timestamp-format`), tio's formats.
public enum TimestampStyle: String, CaseIterable, Sendable {
    /// Local time, `15:04:05.123`.
    case hour24 = "24hour"
    /// Time since the first timestamp of the session, `00:00:01.250`.
    case hour24Start = "24hour-start"
    /// Time since the previous timestamp, `00:00:00.004`.
    case hour24Delta = "24hour-delta"
    /// ISO 8601 in UTC with milliseconds, `2026-12-01T12:15:01.123Z` (as JSON's `time`).
    case iso8601
}
