/// A log line's level, as the line's own format writes it (docs/FIRMWARE.md, "Log
/// levels"): Zephyr's `<err>`, ESP-IDF's `E (1234) tag:`, a Linux printk or syslog
/// priority `<3>`, a `[WARN]` or `ERROR:` word. Ordered from the most severe.
public enum LogLevel: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// syslog severities 0–3 (emergency, alert, critical, error); Zephyr `err`, ESP-IDF `E`.
    case error
    /// syslog severity 4; Zephyr `wrn`, ESP-IDF `W`.
    case warning
    /// syslog severities 5–6 (notice, informational); Zephyr `inf`, ESP-IDF `I`.
    case info
    /// syslog severity 7; Zephyr `dbg`, ESP-IDF `D` and `V` (verbose).
    case debug

    /// Whether `lhs` is more severe than `rhs`.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The level's name in JSON and the view state: `error`, `warning`, `info`, `debug`.
    public var name: String {
        switch self {
        case .error: "error"
        case .warning: "warning"
        case .info: "info"
        case .debug: "debug"
        }
    }

    /// The level a user names (`--level`): its name, or a format's word for it (`err`,
    /// `warn`, `wrn`, `inf`, `dbg`), any case; `nil` for another word.
    public init?(naming text: String) {
        guard let level = Self.words[text.lowercased()] else { return nil }
        self = level
    }

    private static let words: [String: LogLevel] = [
        "emerg": .error, "emergency": .error, "alert": .error, "crit": .error, "critical": .error, "fatal": .error,
        "err": .error, "error": .error, "warn": .warning, "warning": .warning, "wrn": .warning, "notice": .info,
        "inf": .info, "info": .info, "dbg": .debug, "debug": .debug, "trace": .debug, "verbose": .debug,
    ]

    /// The level of a line (its bytes, control sequences removed), or `nil` when no
    /// known format gives one.
    ///
    /// Looked for at the line's start: `<N>` (a printk level 0–7 or a syslog priority
    /// up to 191, whose severity is N mod 8, RFC 5424); then, after one optional
    /// bracketed timestamp (`[00:00:00.012,000] `), Zephyr's `<err>`/`<wrn>`/`<inf>`/`<dbg>`,
    /// ESP-IDF's letter and time in parentheses (`E (1234) `, `W (12:00:01.250) `), a
    /// level word in brackets (`[ERROR]`, `[warn]`) or before a colon (`ERROR:`,
    /// `WARNING:`); and Zephyr's minimal `E: `/`W: `/`I: `/`D: ` at the very start.
    public static func of(_ bytes: [UInt8]) -> LogLevel? {
        guard let first = bytes.first else { return nil }
        if first == UInt8(ascii: "<"), let level = priority(bytes) { return level }
        if bytes.count >= 3, bytes[1] == UInt8(ascii: ":"), bytes[2] == UInt8(ascii: " "),
            let level = letter(first)
        {
            return level
        }
        if let level = zephyr(bytes[...]) ?? espIDF(bytes[...]) ?? word(bytes[...]) { return level }
        guard first == UInt8(ascii: "["), let close = bytes.prefix(40).firstIndex(of: UInt8(ascii: "]")),
            bytes.dropFirst(close + 1).first == UInt8(ascii: " ")
        else { return nil }
        let rest = bytes[(close + 2)...]
        return zephyr(rest) ?? espIDF(rest) ?? word(rest)
    }

    /// `<N>`: a printk level or syslog priority.
    private static func priority(_ bytes: [UInt8]) -> LogLevel? {
        var value = 0
        var index = 1
        while index < bytes.count, index <= 3, let digit = digit(bytes[index]) {
            value = value * 10 + digit
            index += 1
        }
        guard index > 1, index < bytes.count, bytes[index] == UInt8(ascii: ">"), value <= 191 else { return nil }
        return severity(value % 8)
    }

    /// Zephyr's `<err>`, `<wrn>`, `<inf>`, `<dbg>`.
    private static func zephyr(_ bytes: ArraySlice<UInt8>) -> LogLevel? {
        guard bytes.count >= 5, bytes.first == UInt8(ascii: "<"), bytes[bytes.startIndex + 4] == UInt8(ascii: ">")
        else { return nil }
        switch String(decoding: bytes.dropFirst().prefix(3), as: UTF8.self) {
        case "err": return .error
        case "wrn": return .warning
        case "inf": return .info
        case "dbg": return .debug
        default: return nil
        }
    }

    /// ESP-IDF's `E (1234) ` (or a wall-clock time in the parentheses).
    private static func espIDF(_ bytes: ArraySlice<UInt8>) -> LogLevel? {
        let start = bytes.startIndex
        guard bytes.count >= 6, let level = letter(bytes[start]), bytes[start + 1] == UInt8(ascii: " "),
            bytes[start + 2] == UInt8(ascii: "("), digit(bytes[start + 3]) != nil
        else { return nil }
        var index = start + 3
        while index < bytes.endIndex,
            digit(bytes[index]) != nil || bytes[index] == UInt8(ascii: ":")
                || bytes[index] == UInt8(ascii: ".")
        {
            index += 1
        }
        guard index + 1 < bytes.endIndex, bytes[index] == UInt8(ascii: ")"), bytes[index + 1] == UInt8(ascii: " ")
        else { return nil }
        return level
    }

    /// `[ERROR]`, `[warn]`, `ERROR:`, `Warning:`.
    private static func word(_ bytes: ArraySlice<UInt8>) -> LogLevel? {
        let bracketed = bytes.first == UInt8(ascii: "[")
        let letters = (bracketed ? bytes.dropFirst() : bytes).prefix { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }
        guard !letters.isEmpty, letters.count <= 9,
            let level = words[String(decoding: letters, as: UTF8.self).lowercased()]
        else { return nil }
        let after = bytes.index(letters.endIndex, offsetBy: 0)
        guard after < bytes.endIndex else { return nil }
        return bytes[after] == UInt8(ascii: bracketed ? "]" : ":") ? level : nil
    }

    private static func letter(_ byte: UInt8) -> LogLevel? {
        switch byte {
        case UInt8(ascii: "E"): .error
        case UInt8(ascii: "W"): .warning
        case UInt8(ascii: "I"): .info
        case UInt8(ascii: "D"), UInt8(ascii: "V"): .debug
        default: nil
        }
    }

    private static func severity(_ value: Int) -> LogLevel {
        switch value {
        case 0...3: .error
        case 4: .warning
        case 5, 6: .info
        default: .debug
        }
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
