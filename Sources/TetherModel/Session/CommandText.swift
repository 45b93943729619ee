import TetherLibC

/// The checks a command's text must pass before it is sent, and the one decoder of
/// its escapes: the rules the command line, query files and Lua scripts share.
///
/// An empty command is a command: it sends the line end alone (a bare Enter), and a
/// single space sends a space and the line end. A CR or LF typed into the text is
/// refused (it would reach the device as several commands); the escapes `\r` and `\n`
/// ask for those bytes on purpose (docs/QUERY.md, "Escapes in commands"). One shape is no
/// line break: a command line, a CR, then a text ending in Ctrl-Z (0x1A) or ESC (0x1B)
/// with no CR or LF of its own — an SMS text for the `at` dialect's prompt
/// (`AT+CMGS="+15551230000"` CR `Hello` Ctrl-Z, docs/DIALECTS.md).
package enum CommandText {
    /// Why a command cannot be sent as one.
    package enum Problem: Sendable, Equatable {
        /// It holds a CR or LF: it would reach the device as several commands.
        case lineBreak
    }

    /// A bad escape in a command's text, at ``position``.
    package struct EscapeError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The command's text as written.
        package let text: String
        /// Where the bad escape's backslash is, counted in characters from 1.
        package let position: Int
        /// The bad escape as written (`\q`, `\x4`, a trailing `\`).
        package let escape: String

        package var description: String {
            "Bad escape \(Quoted(escape)) at position \(position) in the command "
                + "\(Quoted(text)): use \\r, \\n, \\t, \\e, \\xNN (two hex digits) or \\\\"
        }
    }

    /// What is wrong with `command`, or `nil` when it can be sent.
    package static func problem(in command: String) -> Problem? {
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
    package static func bytes(fromEscaped text: String) throws(EscapeError) -> [UInt8] {
        try bytes(fromEscaped: Array(text.utf8))
    }

    /// The bytes `text` stands for, its escapes decoded as
    /// ``bytes(fromEscaped:)-(String)`` does; every byte that is not part of an escape
    /// is kept as it is, whether or not it is valid UTF-8 (a line piped into `connect`
    /// may hold any byte: `printf '\xffA\n'` sends `ff 41`).
    ///
    /// - Throws: ``EscapeError`` for a bad escape; its position counts the characters
    ///   before it as UTF-8 decoding sees them (an invalid byte counts as one).
    package static func bytes(fromEscaped text: [UInt8]) throws(EscapeError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            guard text[index] == UInt8(ascii: "\\") else {
                bytes.append(text[index])
                index += 1
                continue
            }
            let bad = { (length: Int) in
                EscapeError(
                    text: String(decoding: text, as: UTF8.self),
                    position: String(decoding: text[..<index], as: UTF8.self).count + 1,
                    escape: String(decoding: text[index..<min(index + length, text.count)], as: UTF8.self))
            }
            guard index + 1 < text.count else { throw bad(1) }
            switch text[index + 1] {
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "e"): bytes.append(0x1B)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "x"):
                guard index + 3 < text.count, let high = text[index + 2].asciiHexDigitValue,
                    let low = text[index + 3].asciiHexDigitValue
                else { throw bad(escapeLength(in: text, at: index)) }
                bytes.append(high << 4 | low)
                index += 2
            default: throw bad(escapeLength(in: text, at: index, characters: 2))
            }
            index += 2
        }
        return bytes
    }

    /// How many bytes of `text` from `index` make up its first `characters` scalars
    /// (fewer at its end): a bad escape is shown whole, `\x` and two characters after it.
    private static func escapeLength(in text: [UInt8], at index: Int, characters: Int = 4) -> Int {
        var end = index
        for _ in 0..<characters where end < text.count {
            end += 1
            while end < text.count, text[end] & 0xC0 == 0x80 { end += 1 }
        }
        return end - index
    }

    /// A one-line message about `problem` in `command`, e.g. `The command 'A\nB'
    /// contains a line break`.
    package static func message(_ problem: Problem, in command: String) -> String {
        switch problem {
        case .lineBreak: "The command \(Quoted(command)) contains a line break"
        }
    }
}
