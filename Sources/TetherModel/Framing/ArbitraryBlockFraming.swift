/// IEEE 488.2 arbitrary block response data (§8.7.9, §8.7.10), the `scpi` dialect's
/// payloads: a waveform, a screenshot.
///
/// - Definite length: `#`, one digit `n` (1–9), `n` digits giving the length, then that
///   many bytes: `#42000` and 2000 bytes. The line then ends at its terminator as usual.
/// - Indefinite length: `#0`, then bytes up to the response's NL^END. A serial line has
///   no END message, so the block ends at a LF that is followed by quiet: no byte for
///   ``Session/partialQuietPeriod`` (50 ms) after it (``LineFramer/endIndefiniteBlock()``).
///   A LF with more bytes right after it is data.
/// - A block starts the line or follows a space (after a response header,
///   `:CURV #42000…`), `,` or `;`. A `#` not followed by a valid header (`# hello`,
///   `#A`, `#4` and fewer than four digits) is text.
public struct ArbitraryBlockFraming: PayloadFraming {
    /// Creates the framing.
    public init() {}

    public var headerStarts: [UInt8] { [UInt8(ascii: "#")] }

    public var separators: [UInt8] { [UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: ";")] }

    public func header(in bytes: ArraySlice<UInt8>) -> PayloadHeader {
        let digits = bytes.dropFirst()
        guard let first = digits.first else { return .incomplete }
        guard let count = Self.digit(first) else { return .notAHeader }
        if count == 0 { return .indefinite(headerLength: 2) }
        var length = 0
        for offset in 1...count {
            guard offset < digits.count else { return .incomplete }
            guard let digit = Self.digit(digits[digits.startIndex + offset]) else { return .notAHeader }
            length = length * 10 + digit
        }
        return .block(headerLength: 2 + count, payloadLength: length, endsLine: false)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
    }
}
