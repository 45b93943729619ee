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

    /// Whether a notification is an alarm (see ``Kind/alarm``).
    static func isAlarm(_ text: String) -> Bool {
        let word = text.drop { !$0.isLetter && !$0.isNumber }.prefix { $0.isLetter }.uppercased()
        return ["ALARM", "ALERT", "FAULT", "ERR", "WARN"].contains { word.hasPrefix($0) }
    }
}
