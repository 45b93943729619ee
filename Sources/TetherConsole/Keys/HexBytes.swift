/// Bytes typed as hex pairs, as `connect`'s escape key `w` takes them (picocom's
/// C-a C-w, tio's hex mode): `7f 00 ff`, `7f00ff` or `0x7f 0xff` — words of whole pairs
/// of hex digits, upper or lower case, apart by spaces or tabs, each with an optional
/// `0x`.
public struct HexBytes: Equatable, Sendable {
    /// The bytes, in the order typed.
    public let bytes: [UInt8]

    /// The bytes of `text`; `nil` when a word is not whole pairs of hex digits (`7`,
    /// `7g`, `0x`) or there is no byte at all.
    public init?(parsing text: String) {
        var bytes: [UInt8] = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            let digits = word.hasPrefix("0x") || word.hasPrefix("0X") ? word.dropFirst(2) : word[...]
            let values = digits.compactMap { $0.isASCII ? $0.hexDigitValue : nil }
            guard !values.isEmpty, values.count == digits.count, values.count.isMultiple(of: 2) else { return nil }
            for high in stride(from: 0, to: values.count, by: 2) {
                bytes.append(UInt8(values[high] << 4 | values[high + 1]))
            }
        }
        guard !bytes.isEmpty else { return nil }
        self.bytes = bytes
    }
}
