/// The checks a command's text must pass before it is sent: the one rule the command
/// line, query files and Lua scripts share.
public enum CommandText {
    /// Why a command cannot be sent as one.
    public enum Problem: Sendable, Equatable {
        /// It is empty or only blanks: it would send a bare terminator.
        case empty
        /// It holds a CR or LF: it would reach the device as several commands.
        case lineBreak
    }

    /// What is wrong with `command`, or `nil` when it can be sent.
    public static func problem(in command: String) -> Problem? {
        if command.allSatisfy({ $0 == " " || $0 == "\t" }) { return .empty }
        if command.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) { return .lineBreak }
        return nil
    }

    /// `command` with CR and LF shown as `\r` and `\n`, for messages.
    public static func shown(_ command: String) -> String {
        var text = ""
        for scalar in command.unicodeScalars {
            switch scalar {
            case "\r": text += "\\r"
            case "\n": text += "\\n"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// A one-line message about `problem` in `command`, e.g. `The command 'A\nB'
    /// contains a line break`.
    public static func message(_ problem: Problem, in command: String) -> String {
        switch problem {
        case .empty: "The command '\(shown(command))' is empty"
        case .lineBreak: "The command '\(shown(command))' contains a line break"
        }
    }
}
