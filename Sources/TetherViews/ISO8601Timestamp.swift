import FoundationEssentials

/// ISO 8601 timestamps in UTC with milliseconds (`2026-11-29T21:04:08.106Z`), computed
/// with integer arithmetic: no formatter and no time-zone database per line. The
/// calendar is the proleptic Gregorian one (Howard Hinnant's `civil_from_days`);
/// milliseconds are truncated, as `Date.ISO8601FormatStyle` does
/// (`ISO8601TimestampTests` compares the two).
enum ISO8601Timestamp {
    /// `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    static func string(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ` (24 ASCII bytes for years 1000–9999).
    static func append(_ date: Date, to bytes: inout [UInt8]) {
        let interval = date.timeIntervalSince1970
        let wholeSeconds = interval.rounded(.down)
        let milliseconds = Int64(wholeSeconds) * 1000 + Int64(((interval - wholeSeconds) * 1000).rounded(.down))
        let (days, dayMilliseconds) = milliseconds.floorDivided(by: 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let secondOfDay = dayMilliseconds / 1000
        append(year, width: 4, to: &bytes, then: "-")
        append(month, width: 2, to: &bytes, then: "-")
        append(day, width: 2, to: &bytes, then: "T")
        append(secondOfDay / 3600, width: 2, to: &bytes, then: ":")
        append(secondOfDay / 60 % 60, width: 2, to: &bytes, then: ":")
        append(secondOfDay % 60, width: 2, to: &bytes, then: ".")
        append(dayMilliseconds % 1000, width: 3, to: &bytes, then: "Z")
    }

    /// Year, month (1–12) and day (1–31) of the day `days` after 1970-01-01.
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Appends `value` (0 or more) in decimal, zero-padded to `width` digits, then
    /// `separator`.
    private static func append(_ value: Int64, width: Int, to bytes: inout [UInt8], then separator: Unicode.Scalar) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
        bytes.append(UInt8(ascii: separator))
    }
}

extension Int64 {
    /// Quotient rounded towards minus infinity, and the non-negative remainder.
    fileprivate func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
