/// Shows received bytes safely on a terminal.
///
/// Printable text, including non-ASCII UTF-8, is kept; `\` becomes `\\`; tab, CR and
/// LF become `\t`, `\r`, `\n`; every other control character (C0, DEL, C1 — ESC
/// included, so a device cannot drive the user's terminal) and every byte that is not
/// part of valid UTF-8 becomes `\xNN`. The result is unambiguous: the bytes can be
/// recovered from it (not so with `escapesBackslash: false`, meant for text the user
/// wrote rather than device bytes).
public enum ByteEscaping {
    /// The escaped form of `bytes`, e.g. `AB\x00CD` for `41 42 00 43 44`.
    ///
    /// - Parameters:
    ///   - bytes: the bytes to show.
    ///   - escapesBackslash: `false` keeps `\` as it is — for text the user
    ///     wrote (a script's `=~ ^\d+$`), where only control bytes need escaping.
    public static func escaped(_ bytes: [UInt8], escapesBackslash: Bool = true) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        appendEscaped(bytes, escapesBackslash: escapesBackslash, to: &result)
        return String(decoding: result, as: UTF8.self)
    }

    /// Appends the escaped form of `bytes` (``escaped(_:escapesBackslash:)``) to
    /// `output` as UTF-8: printable ASCII is copied as it is, byte by byte, without
    /// decoding.
    public static func appendEscaped(_ bytes: [UInt8], escapesBackslash: Bool = true, to output: inout [UInt8]) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20 && byte < 0x7F {
                if byte == UInt8(ascii: "\\") && escapesBackslash { output.append(byte) }
                output.append(byte)
                index += 1
                continue
            }
            let (scalar, length) = byte < 0x80 ? (nil, 1) : decodeScalar(bytes, at: index)
            if let scalar, !isControl(scalar) {
                output.append(contentsOf: bytes[index..<index + length])
            } else {
                for byte in bytes[index..<index + length] { output.append(contentsOf: escape(byte).utf8) }
            }
            index += length
        }
    }

    /// The escaped form of `bytes` written as hex pairs, e.g. `01 0d 0a`.
    public static func hex(_ bytes: [UInt8], separator: String = " ") -> String {
        bytes.map { hexPair($0) }.joined(separator: separator)
    }

    /// The first `limit` of `bytes` as hex pairs, then ` …` when there are more:
    /// `00 01 02 … 0f …` for 2000 bytes and a limit of 16; all of them when they fit.
    public static func hex(_ bytes: some Collection<UInt8>, atMost limit: Int) -> String {
        hex(Array(bytes.prefix(limit))) + (bytes.count > limit ? " …" : "")
    }

    private static func escape(_ byte: UInt8) -> String {
        switch byte {
        case 0x09: "\\t"
        case 0x0A: "\\n"
        case 0x0D: "\\r"
        default: "\\x" + hexPair(byte)
        }
    }

    private static func hexPair(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Decodes one UTF-8 scalar at `index`: the scalar (nil when the bytes there are
    /// not valid UTF-8) and how many bytes it used (1 for an invalid byte).
    static func decodeScalar(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar?, Int) {
        var iterator = bytes[index...].makeIterator()
        var decoder = UTF8()
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar):
            return (scalar, String(scalar).utf8.count)
        case .emptyInput, .error:
            return (nil, 1)
        }
    }
}
