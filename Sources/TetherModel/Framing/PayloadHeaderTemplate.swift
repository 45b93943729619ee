import TetherLibC

/// One length-prefixed payload form, written as the header looks on the wire with
/// fields in braces: `+IPD,{id},{len}:` (ESP-AT), `+QIRD: {len}` (Quectel).
///
/// - `{len}` (exactly once) is the payload's length in bytes, 1 to 9 decimal digits.
/// - Any other `{name}` is a field of one or more bytes, up to the text that follows
///   it; two fields need text between them. `{{` and `}}` are literal braces.
/// - The template starts with text; its first byte is where the framer looks
///   (``PayloadFraming/headerStarts``), at the start of a line.
/// - Ending in text (`+IPD,{id},{len}:`): the payload follows that text and ends the
///   line — no terminator follows it.
/// - Ending in a field (`+QIRD: {len}`): the header is a whole line, ended by its
///   terminator; the payload is the next `len` bytes, a line of its own (then the reply
///   goes on: `\r\nOK\r\n`).
public struct PayloadHeaderTemplate: Sendable, Hashable, CustomStringConvertible {
    /// A template that is not valid, with the reason.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        /// The template as written.
        public let template: String
        /// What is wrong, e.g. `it has no {len} field`.
        public let reason: String
        public var description: String { "\(Quoted(template)) is not a payload header: \(reason)" }
    }

    enum Part: Hashable {
        case text([UInt8])
        case length
        case field
    }

    /// The template as written.
    public let source: String
    let parts: [Part]

    /// ESP-AT's received data: `+IPD,{len}:`, `+IPD,{id},{len}:`, and with
    /// `AT+CIPDINFO=1` `+IPD,{id},{len},{ip},{port}:` (the `at` dialect's built-ins).
    public static let espAT: [PayloadHeaderTemplate] = [
        try! PayloadHeaderTemplate("+IPD,{len}:"), try! PayloadHeaderTemplate("+IPD,{id},{len}:"),
        try! PayloadHeaderTemplate("+IPD,{id},{len},{ip},{port}:"),
    ]
    /// Quectel's `AT+QIRD` answer: `+QIRD: {len}` (the `at` dialect's built-in).
    public static let quectel = try! PayloadHeaderTemplate("+QIRD: {len}")

    /// Parses `source`.
    ///
    /// - Throws: ``Invalid`` when it has no `{len}` or two, does not start with text,
    ///   has two fields with no text between them, or a brace that is not closed.
    public init(_ source: String) throws(Invalid) {
        func invalid(_ reason: String) -> Invalid { Invalid(template: source, reason: reason) }
        var parts: [Part] = []
        var text: [UInt8] = []
        var bytes = Array(source.utf8)[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}"), bytes.first == byte {
                text.append(bytes.removeFirst())
            } else if byte == UInt8(ascii: "{") {
                guard let close = bytes.firstIndex(of: UInt8(ascii: "}")) else {
                    throw invalid("a '{' is not closed (write '{{' for a brace)")
                }
                let name = bytes[..<close]
                guard !name.isEmpty else { throw invalid("a field has no name, e.g. {len}") }
                bytes = bytes[(close + 1)...]
                guard !text.isEmpty || !parts.isEmpty else { throw invalid("it must start with text, e.g. '+IPD,'") }
                if text.isEmpty { throw invalid("two fields need text between them") }
                parts.append(.text(text))
                text = []
                parts.append(name.elementsEqual("len".utf8) ? .length : .field)
            } else if byte == UInt8(ascii: "}") {
                throw invalid("a '}' is not opened (write '}}' for a brace)")
            } else if byte == 0x0A || byte == 0x0D {
                throw invalid("it cannot hold a line end")
            } else {
                text.append(byte)
            }
        }
        if !text.isEmpty { parts.append(.text(text)) }
        guard parts.count(where: { $0 == .length }) == 1 else {
            throw invalid("it needs exactly one {len} field, the payload's length")
        }
        guard case .text(let first) = parts.first, !first.isEmpty else {
            throw invalid("it must start with text, e.g. '+IPD,'")
        }
        self.source = source
        self.parts = parts
    }

    /// The byte a header of this form starts with.
    var firstByte: UInt8 {
        guard case .text(let text) = parts[0] else { preconditionFailure("a template starts with text") }
        return text[0]
    }

    /// The `+XXX` name a header of this form starts with (`+IPD`, `+QIRD`), or `nil`.
    public var prefix: String? {
        guard case .text(let text) = parts[0], text.first == UInt8(ascii: "+") else { return nil }
        let name = text.dropFirst().prefix {
            (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0)
        }
        return name.isEmpty ? nil : "+" + String(decoding: name, as: UTF8.self).uppercased()
    }

    /// Reads a header of this form at the start of `bytes` (see ``PayloadFraming/header(in:)``).
    func header(in bytes: ArraySlice<UInt8>) -> PayloadHeader {
        var index = bytes.startIndex
        var length: Int?
        for (number, part) in parts.enumerated() {
            let isLast = number == parts.count - 1
            switch part {
            case .text(let text):
                for byte in text {
                    guard index < bytes.endIndex else { return .incomplete }
                    guard bytes[index] == byte else { return .notAHeader }
                    index += 1
                }
                if isLast, let length {
                    return .block(headerLength: index - bytes.startIndex, payloadLength: length, endsLine: true)
                }
            case .length, .field:
                // Up to the next text's first byte, or (last) to the line end.
                let stop: UInt8? =
                    isLast ? nil : { if case .text(let text) = parts[number + 1] { text[0] } else { nil } }()
                let fieldStart = index
                var value = 0
                while index < bytes.endIndex, bytes[index] != stop, bytes[index] != 0x0A, bytes[index] != 0x0D {
                    if part == .length {
                        guard (0x30...0x39).contains(bytes[index]), index - fieldStart < 9 else { return .notAHeader }
                        value = value * 10 + Int(bytes[index] - 0x30)
                    }
                    index += 1
                }
                guard index < bytes.endIndex else { return .incomplete }
                guard index > fieldStart else { return .notAHeader }
                if part == .length { length = value }
                if isLast {
                    return .announcing(payloadLength: length ?? 0)
                }
                guard bytes[index] == stop else { return .notAHeader }
            }
        }
        return .notAHeader
    }

    public var description: String { source }
}
