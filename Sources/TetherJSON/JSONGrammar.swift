/// RFC 8259's grammar (§2–§7) checked over a document's bytes, with no leniency: one
/// value with blanks around it; no comma before `]` or `}`; numbers without leading
/// zeros or a bare `.`; strings without control characters, with only the escapes
/// `\" \\ \/ \b \f \n \r \t \uXXXX`. Nesting is followed with a stack, not recursion,
/// so a deeply nested document cannot exhaust the stack. Values are not decoded here.
package struct JSONGrammar {
    /// The first place where a document leaves the grammar.
    package struct Mistake: Error, Equatable {
        /// The byte offset (from 0) of the mistake; for a trailing comma, of the comma.
        package let offset: Int
        /// Whether the mistake is a comma followed by `]` or `}`.
        package let isTrailingComma: Bool
        /// What is wrong, e.g. `unexpected 'x'; expected a value`.
        package let message: String
    }

    private let bytes: [UInt8]
    private var index = 0
    /// One entry per open container: `}` for an object, `]` for an array.
    private var closers: [UInt8] = []

    /// Checks that `bytes` is one JSON text.
    ///
    /// - Throws: the first ``Mistake``.
    package static func check(_ bytes: [UInt8]) throws(Mistake) {
        var grammar = JSONGrammar(bytes: bytes)
        try grammar.document()
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func document() throws(Mistake) {
        skipBlanks()
        while true {
            while try valueOrOpening() {}
            while try closeOrSeparate() {}
            if closers.isEmpty { break }
        }
        skipBlanks()
        if current != nil { throw mistake("expected the end of the document") }
    }

    /// A whole value (a scalar or an empty container: `false`), or the opening of a
    /// container with its first member name (`true`: its first value follows).
    private mutating func valueOrOpening() throws(Mistake) -> Bool {
        guard let byte = current else { throw mistake("expected a value") }
        switch byte {
        case UInt8(ascii: "{"):
            index += 1
            skipBlanks()
            if current == UInt8(ascii: "}") {
                index += 1
                return false
            }
            closers.append(UInt8(ascii: "}"))
            try memberName()
            return true
        case UInt8(ascii: "["):
            index += 1
            skipBlanks()
            if current == UInt8(ascii: "]") {
                index += 1
                return false
            }
            closers.append(UInt8(ascii: "]"))
            return true
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw mistake("expected a value")
        }
        return false
    }

    /// After a value: closes the innermost container (`true`: look again), or takes
    /// a comma and the next member name (`false`: a value follows). At the top level,
    /// `false`.
    private mutating func closeOrSeparate() throws(Mistake) -> Bool {
        guard let closer = closers.last else { return false }
        skipBlanks()
        if current == closer {
            index += 1
            closers.removeLast()
            return !closers.isEmpty
        }
        guard current == UInt8(ascii: ",") else {
            throw mistake("expected ',' or '\(Character(Unicode.Scalar(closer)))'")
        }
        let comma = index
        index += 1
        skipBlanks()
        if current == UInt8(ascii: "]") || current == UInt8(ascii: "}") {
            throw Mistake(
                offset: comma, isTrailingComma: true, message: "a comma must be followed by another value")
        }
        if closer == UInt8(ascii: "}") { try memberName() }
        return false
    }

    /// `"name"`, blanks, `:` and blanks.
    private mutating func memberName() throws(Mistake) {
        guard current == UInt8(ascii: "\"") else { throw mistake("expected a member name in double quotes") }
        try string()
        skipBlanks()
        guard current == UInt8(ascii: ":") else { throw mistake("expected ':' after the member name") }
        index += 1
        skipBlanks()
    }

    private mutating func string() throws(Mistake) {
        index += 1
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = current else { break }
                if escape == UInt8(ascii: "u") {
                    for _ in 0..<4 {
                        index += 1
                        guard let digit = current, Self.isHexDigit(digit) else {
                            throw mistake("expected 4 hex digits after \\u")
                        }
                    }
                } else if !Array(#""\/bfnrt"#.utf8).contains(escape) {
                    throw mistake("not an escape; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
                }
                index += 1
            case 0..<0x20: throw mistake("a control character must be escaped in a string")
            default: index += 1
            }
        }
        throw mistake("the string is not closed")
    }

    private mutating func literal(_ word: String) throws(Mistake) {
        for byte in word.utf8 {
            guard current == byte else { throw mistake("expected '\(word)'") }
            index += 1
        }
    }

    private mutating func number() throws(Mistake) {
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
            if let next = current, Self.isDigit(next) { throw mistake("a number cannot start with 0") }
        } else {
            try digits()
        }
        if current == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
    }

    /// One or more digits.
    private mutating func digits() throws(Mistake) {
        guard let first = current, Self.isDigit(first) else { throw mistake("expected a digit") }
        while let byte = current, Self.isDigit(byte) { index += 1 }
    }

    private mutating func skipBlanks() {
        while let byte = current, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { index += 1 }
    }

    /// A mistake at the current byte, naming it.
    private func mistake(_ expected: String) -> Mistake {
        let found: String
        switch current {
        case nil: found = "end of the document"
        case let byte? where byte >= 0x20 && byte < 0x7F: found = "'\(Character(Unicode.Scalar(byte)))'"
        case let byte?: found = "the byte 0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }
        return Mistake(offset: index, isTrailingComma: false, message: "unexpected \(found); \(expected)")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}
