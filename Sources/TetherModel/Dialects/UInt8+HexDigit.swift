extension UInt8 {
    /// The value (0–15) of this byte as an ASCII hex digit, either case (`7` → 7,
    /// `b` and `B` → 11), or `nil` for any other byte.
    var asciiHexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
