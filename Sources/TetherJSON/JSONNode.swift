/// One JSON value (RFC 8259) as read from a document, before it is decoded into a
/// type: numbers keep their text, so each type that decodes one reads it exactly
/// (`Int` from `3`, `3.0` or `3e2`; `Double` from any). Built by ``parse(_:)``.
package indirect enum JSONNode: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number as written, e.g. `-1.5e3`.
    case number(String)
    case string(String)
    case array([JSONNode])
    case object([String: JSONNode])

    /// The deepest nesting of arrays and objects ``parse(_:)`` builds (as Foundation's
    /// `JSONDecoder`), so that building, which recurses, cannot exhaust the stack.
    package static let depthLimit = 512

    /// Why a document that ``JSONGrammar`` accepts cannot be built (as Foundation's
    /// `JSONDecoder` refuses it).
    package enum Refusal: Error, Equatable {
        /// More than ``depthLimit`` nested containers.
        case tooDeep
        /// A `\uD800`–`\uDFFF` escape that is not half of a surrogate pair.
        case loneSurrogate
    }

    /// Reads one JSON text: `bytes` are checked by ``JSONGrammar`` first.
    ///
    /// - Throws: ``JSONGrammar/Mistake`` for a syntax error; a ``Refusal``.
    package static func parse(_ bytes: [UInt8]) throws -> JSONNode {
        try JSONGrammar.check(bytes)
        var builder = Builder(bytes: bytes)
        return try builder.value(depth: 0)
    }

    /// Builds the nodes of a document the grammar has accepted.
    private struct Builder {
        let bytes: [UInt8]
        var index = 0

        mutating func value(depth: Int) throws(Refusal) -> JSONNode {
            skipBlanks()
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard depth < JSONNode.depthLimit else { throw .tooDeep }
                index += 1
                var members: [String: JSONNode] = [:]
                while take(UInt8(ascii: "}")) == false {
                    _ = take(UInt8(ascii: ","))
                    skipBlanks()
                    let name = try string()
                    _ = take(UInt8(ascii: ":"))
                    members[name] = try value(depth: depth + 1)
                }
                return .object(members)
            case UInt8(ascii: "["):
                guard depth < JSONNode.depthLimit else { throw .tooDeep }
                index += 1
                var items: [JSONNode] = []
                while take(UInt8(ascii: "]")) == false {
                    _ = take(UInt8(ascii: ","))
                    items.append(try value(depth: depth + 1))
                }
                return .array(items)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                index += 4
                return .bool(true)
            case UInt8(ascii: "f"):
                index += 5
                return .bool(false)
            case UInt8(ascii: "n"):
                index += 4
                return .null
            default:
                let start = index
                while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
                return .number(String(decoding: bytes[start..<index], as: UTF8.self))
            }
        }

        /// Takes `byte` after blanks, if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipBlanks()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// The string at `index` (its opening quote), escapes decoded.
        mutating func string() throws(Refusal) -> String {
            index += 1
            var text: [UInt8] = []
            var pendingHigh: UInt32?
            while bytes[index] != UInt8(ascii: "\"") {
                guard bytes[index] == UInt8(ascii: "\\") else {
                    guard pendingHigh == nil else { throw .loneSurrogate }
                    text.append(bytes[index])
                    index += 1
                    continue
                }
                let escape = bytes[index + 1]
                index += 2
                guard escape == UInt8(ascii: "u") else {
                    guard pendingHigh == nil else { throw .loneSurrogate }
                    text.append(Self.unescaped(escape))
                    continue
                }
                let unit = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) ?? 0xFFFD
                index += 4
                if let high = pendingHigh, (0xDC00...0xDFFF).contains(unit) {
                    pendingHigh = nil
                    append(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00), to: &text)
                } else if pendingHigh != nil || (0xDC00...0xDFFF).contains(unit) {
                    throw .loneSurrogate
                } else if (0xD800...0xDBFF).contains(unit) {
                    pendingHigh = unit
                } else {
                    append(unit, to: &text)
                }
            }
            guard pendingHigh == nil else { throw .loneSurrogate }
            index += 1
            return String(decoding: text, as: UTF8.self)
        }

        private func append(_ scalar: UInt32, to text: inout [UInt8]) {
            text.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
        }

        private mutating func skipBlanks() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// The byte an escape `\b`, `\n`… stands for (`\"`, `\\`, `\/` for themselves).
        private static func unescaped(_ escape: UInt8) -> UInt8 {
            switch escape {
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: escape
            }
        }

        private static func isNumberByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || Array("+-.eE".utf8).contains(byte)
        }
    }
}
