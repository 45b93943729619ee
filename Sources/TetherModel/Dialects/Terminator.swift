/// The line terminator written after a command (`--eol lf|cr|crlf|none`).
public enum Terminator: String, Sendable, CaseIterable {
    /// Line feed, `\n` (0x0A).
    case lf
    /// Carriage return, `\r` (0x0D) — AT commands, many consoles.
    case cr
    /// CR LF, `\r\n`.
    case crlf
    /// No terminator: the command's bytes go out alone (a device that takes fixed-length
    /// or binary commands; the command may end in an escaped `\r` of its own).
    case none

    /// The terminator's bytes.
    public var bytes: [UInt8] {
        switch self {
        case .lf: [0x0A]
        case .cr: [0x0D]
        case .crlf: [0x0D, 0x0A]
        case .none: []
        }
    }
}
