/// The checks a command's text must pass before it is sent, and the one decoder of
/// its escapes: the rules the command line, query files and Lua scripts share.
///
/// An empty command is a command: it sends the line end alone (a bare Enter), and a
/// single space sends a space and the line end. A CR or LF typed into the text is
/// refused (it would reach the device as several commands); the escapes `\r` and `\n`
/// ask for those bytes on purpose (README.md, "Escapes in commands"). One shape is no
/// line break: a command line, a CR, then a text ending in Ctrl-Z (0x1A) or ESC (0x1B)
/// with no CR or LF of its own — an SMS text for the `at` dialect's prompt
/// (`AT+CMGS="+15551230000"` CR `Hello` Ctrl-Z, docs/DIALECTS.md).
public enum CommandText {
    /// Why a command cannot be sent as one.
    public enum Problem: Sendable, Equatable {
        /// It holds a CR or LF: it would reach the device as several commands.
        case lineBreak
    }

    /// A bad escape in a command's text, at ``position``.
    public struct EscapeError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The command's text as written.
        public let text: String
        /// Where the bad escape's backslash is, counted in characters from 1.
        public let position: Int
        /// The bad escape as written (`\q`, `\x4`, a trailing `\`).
        public let escape: String

        public var description: String {
            "Bad escape '\(CommandText.shown(escape))' at position \(position) in the command "
                + "'\(CommandText.shown(text))': use \\r, \\n, \\t, \\e, \\xNN (two hex digits) or \\\\"
        }
    }

    /// What is wrong with `command`, or `nil` when it can be sent.
    public static func problem(in command: String) -> Problem? {
        let scalars = command.unicodeScalars
        guard let lineBreak = scalars.firstIndex(where: { $0 == "\n" || $0 == "\r" }) else { return nil }
        let text = scalars[scalars.index(after: lineBreak)...]
        let isText =
            scalars[lineBreak] == "\r" && (text.last == "\u{1A}" || text.last == "\u{1B}")
            && !text.contains { $0 == "\n" || $0 == "\r" }
        return isText ? nil : .lineBreak
    }

    /// The bytes `text` stands for, its escapes decoded: `\r` (0x0D), `\n` (0x0A),
    /// `\t` (0x09), `\e` (ESC, 0x1B), `\xNN` (the byte 0xNN: exactly two hex digits,
    /// either case) and `\\` (a backslash); every other character is its UTF-8 bytes.
    /// So `\x7f\xff\x00ABC` is `7f ff 00 41 42 43`, and any byte 0x00–0xFF can be written.
    ///
    /// - Throws: ``EscapeError`` for a backslash followed by anything else (`\q`), a
    ///   `\x` without two hex digits (`\x4`, `\xZZ`), or a backslash at the end.
    public static func bytes(fromEscaped text: String) throws(EscapeError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            guard character == "\\" else {
                bytes += Array(character.utf8)
                index += 1
                continue
            }
            let bad = { (length: Int) in
                EscapeError(
                    text: text, position: index + 1,
                    escape: String(characters[index..<min(index + length, characters.count)]))
            }
            guard index + 1 < characters.count else { throw bad(1) }
            switch characters[index + 1] {
            case "r": bytes.append(0x0D)
            case "n": bytes.append(0x0A)
            case "t": bytes.append(0x09)
            case "e": bytes.append(0x1B)
            case "\\": bytes.append(UInt8(ascii: "\\"))
            case "x":
                guard index + 3 < characters.count, let high = characters[index + 2].hexDigitValue,
                    let low = characters[index + 3].hexDigitValue,
                    characters[index + 2].isASCII, characters[index + 3].isASCII
                else { throw bad(4) }
                bytes.append(UInt8(high * 16 + low))
                index += 2
            default: throw bad(2)
            }
            index += 2
        }
        return bytes
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
        case .lineBreak: "The command '\(shown(command))' contains a line break"
        }
    }
}
