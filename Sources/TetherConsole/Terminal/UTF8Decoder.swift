/// Decodes UTF-8 arriving in pieces: a character split across two reads is kept
/// until it is complete; a byte that cannot start or continue one becomes U+FFFD.
struct UTF8Decoder {
    private var carry: [UInt8] = []

    /// The complete characters in `carry + bytes`; an incomplete tail is kept.
    mutating func decode(_ bytes: [UInt8]) -> [UnicodeScalar] {
        let input = carry + bytes
        carry.removeAll()
        var end = input.count
        // Keep an incomplete sequence at the end for the next read.
        var back = input.count - 1
        while back >= 0 && back >= input.count - 3 && input[back] & 0xC0 == 0x80 { back -= 1 }
        if back >= 0 {
            let lead = input[back]
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            if input.count - back < length {
                end = back
                carry = Array(input[back...])
            }
        }
        return Array(String(decoding: input[..<end], as: UTF8.self).unicodeScalars)
    }
}
