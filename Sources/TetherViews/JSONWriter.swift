import TetherPresenter

/// Serializes a `JSONValue` as one line of JSON (RFC 8259) into bytes, with the
/// keys of every object sorted — the text `JSONEncoder` writes with `.sortedKeys` and
/// `.withoutEscapingSlashes`, without its per-call set-up, `Data` and `String` copies.
///
/// Strings are written as their UTF-8 bytes with `"`, `\` and the control characters
/// U+0000–U+001F escaped (`\n`, `\r`, `\t`, `\b`, `\f`, otherwise `\u00XX`); so are
/// DEL and the C1 controls U+007F–U+009F (`\u007f`…`\u009f`), which JSON allows raw
/// but a terminal showing the record would obey (U+009B is CSI). U+2028 and U+2029 are
/// written as themselves, which JSON allows. Numbers are finite by
/// construction of the records, but a non-finite `Double` (which JSON cannot hold) is
/// written as a string (`"nan"`, `"inf"`, `"-inf"`) rather than failing: writing a
/// record never fails. `JSONWriterDifferentialTests` checks that Foundation's
/// `JSONDecoder` reads every record back as `JSONEncoder` would have written it.
public enum JSONWriter {
    /// Appends `value` to `output`.
    public static func append(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .string(let text): appendString(text, to: &output)
        case .int(let number): output.append(contentsOf: String(number).utf8)
        case .double(let number):
            if number.isFinite {
                appendFinite(number, to: &output)
            } else {
                appendString(String(number), to: &output)
            }
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null: output.append(contentsOf: "null".utf8)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                append(item, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let fields):
            output.append(UInt8(ascii: "{"))
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                appendString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                append(fields[key]!, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// `value` as one JSON line, newline included.
    public static func line(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        append(value, to: &output)
        output.append(UInt8(ascii: "\n"))
        return output
    }

    /// A finite number as `JSONEncoder` writes it: Swift's shortest round-trip
    /// digits, with an integral value's `.0` dropped (`22`, `22.87`, `1e-07`).
    private static func appendFinite(_ number: Double, to output: inout [UInt8]) {
        let text = number.description
        if text.hasSuffix(".0") {
            output.append(contentsOf: text.utf8.dropLast(2))
        } else {
            output.append(contentsOf: text.utf8)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` as a JSON string: runs of bytes that need no escape are copied
    /// in one go.
    static func appendString(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendString(utf8: $0, to: &output) }
    }

    /// Appends the valid UTF-8 `bytes` as a JSON string, as ``appendString(_:to:)``
    /// does for their text.
    static func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        do {
            var runStart = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                // A C1 control is 0xC2 0x80…0x9F in UTF-8 (the text is valid UTF-8).
                let c1 = byte == 0xC2 && index + 1 < bytes.count && bytes[index + 1] < 0xA0 ? bytes[index + 1] : nil
                let isControl = byte < 0x20 || byte == 0x7F || c1 != nil
                guard isControl || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscape(c1 ?? byte, to: &output)
                index += c1 == nil ? 1 : 2
                runStart = index
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends the escape of `byte`: `"`, `\\` or a control character (C0, DEL, or the
    /// code point of a C1 control, U+0080–U+009F).
    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        case 0x00..<0x20, 0x7F...0x9F:
            output.append(UInt8(ascii: "u"))
            output.append(UInt8(ascii: "0"))
            output.append(UInt8(ascii: "0"))
            output.append(hexDigits[Int(byte >> 4)])
            output.append(hexDigits[Int(byte & 0x0F)])
        default: output.append(byte)  // `"` or `\`
        }
    }
}
