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
            // `UInt8(_:radix:)` alone would take a sign (`+f`).
            guard !digits.isEmpty, digits.count.isMultiple(of: 2), digits.allSatisfy({ $0.isASCII && $0.isHexDigit })
            else { return nil }
            var index = digits.startIndex
            while index < digits.endIndex {
                let next = digits.index(index, offsetBy: 2)
                guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
                bytes.append(byte)
                index = next
            }
        }
        guard !bytes.isEmpty else { return nil }
        self.bytes = bytes
    }
}
