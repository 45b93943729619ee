import FoundationEssentials

/// The reading of ISO 8601 timestamps (`2026-11-29T21:04:08.098Z`, JSON's `time`) by
/// integer arithmetic, where `Date.ISO8601FormatStyle` would link most of
/// FoundationEssentials into the binaries (docs/PERFORMANCE.md). The calendar is the
/// proleptic Gregorian one (Howard Hinnant's `days_from_civil`).
enum ISO8601Date {
    /// `YYYY-MM-DDTHH:MM:SS`, then optionally `.` and fraction digits, then `Z` or an
    /// offset `±HH:MM` (`±HHMM`, `±HH`); `nil` for anything else or a field out of range.
    static func parse(_ text: String) -> Date? {
        var reader = Reader(bytes: Array(text.utf8))
        guard let year = reader.number(4), reader.take("-"), let month = reader.number(2), reader.take("-"),
            let day = reader.number(2), reader.take("T") || reader.take("t"), let hour = reader.number(2),
            reader.take(":"), let minute = reader.number(2), reader.take(":"), let second = reader.number(2),
            (1...12).contains(month), (1...days(inMonth: month, of: year)).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var fraction = 0.0
        if reader.take(".") {
            var digits = "0."
            while let digit = reader.digit() { digits += String(digit) }
            guard digits.count > 2, let value = Double(digits) else { return nil }
            fraction = value
        }
        guard let offset = reader.offset(), reader.isAtEnd else { return nil }
        let seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// The days from 1970-01-01 to `year`-`month`-`day`.
    private static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func days(inMonth month: Int, of year: Int) -> Int {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return month == 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].contains(month) ? 30 : 31
    }

    /// The bytes of a timestamp, read from the front.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
                return nil
            }
            index += 1
            return Int(bytes[index - 1] - UInt8(ascii: "0"))
        }

        /// Exactly `count` digits as a number.
        mutating func number(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        /// `Z` (0) or `±HH[:MM]` as seconds east of UTC.
        mutating func offset() -> Int? {
            if take("Z") || take("z") { return 0 }
            let sign = take("+") ? 1 : take("-") ? -1 : 0
            guard sign != 0, let hours = number(2), hours < 24 else { return nil }
            if isAtEnd { return sign * hours * 3600 }
            _ = take(":")
            guard let minutes = number(2), minutes < 60 else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}
