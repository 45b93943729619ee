import FoundationEssentials

/// Something that went wrong or needs attention: an alarm notification, an error reply
/// or a warning.
public struct Alert: Sendable, Equatable {
    /// What kind of alert.
    public enum Kind: String, Sendable, Equatable {
        /// A notification whose first word starts with `ALARM`, `ALERT`, `FAULT`, `ERR`
        /// or `WARN` in any letter case, after leading punctuation (`!ALARM temp_high …`).
        case alarm
        /// A reply the dialect calls an error (`ERR -222,…`, `+CME ERROR: 10`).
        case errorReply
        /// A problem tether noticed that does not end the session (e.g. a write error).
        case warning
        /// A received line the dialect found damaged (`nmea`: a wrong checksum).
        case invalidLine
        /// A break, or a character received with a framing or parity error
        /// (``ViewEvent/lineEvent(_:)``).
        case lineEvent
    }

    /// When it happened.
    public var time: Date
    /// What kind of alert.
    public var kind: Kind
    /// The line: the notification, the error reply's last line, or the warning text.
    public var line: ViewLine
    /// The command an error reply answered.
    public var command: String?

    /// Creates an alert.
    public init(time: Date, kind: Kind, line: ViewLine, command: String? = nil) {
        self.time = time
        self.kind = kind
        self.line = line
        self.command = command
    }

    /// The words that make a notification an alarm when its first word starts with one.
    private static let alarmWords = ["ALARM", "ALERT", "FAULT", "ERR", "WARN"]

    /// Whether a notification is an alarm (see ``Kind/alarm``).
    static func isAlarm(_ text: String) -> Bool {
        let word = text.drop { !$0.isLetter && !$0.isNumber }.prefix { $0.isLetter }.uppercased()
        return alarmWords.contains { word.hasPrefix($0) }
    }

    /// ``isAlarm(_:)`` of a line's UTF-8 `bytes`, read byte by byte while they are
    /// ASCII — the common case, with no `String` made — and as text otherwise.
    static func isAlarm(bytes: [UInt8]) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var index = 0
        while index < bytes.count, bytes[index] < 0x80, !isLetter(bytes[index]), !isDigit(bytes[index]) { index += 1 }
        var word: [UInt8] = []
        while index < bytes.count, bytes[index] < 0x80, isLetter(bytes[index]), word.count < 5 {
            word.append(bytes[index] & ~0x20)
            index += 1
        }
        // A byte of a non-ASCII character in or right after the scanned part (a letter,
        // a combining mark): as text.
        if index < bytes.count, bytes[index] >= 0x80 { return isAlarm(String(decoding: bytes, as: UTF8.self)) }
        return alarmWords.contains { word.starts(with: $0.utf8) }
    }
}
