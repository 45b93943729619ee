/// How a block's data is checked: the one-byte arithmetic checksum of XMODEM, or the
/// CRC-16 of XMODEM-CRC, XMODEM-1K and YMODEM.
public enum BlockCheck: Sendable, Equatable {
    /// The sum of the data bytes modulo 256, one byte.
    case checksum
    /// CRC-16/XMODEM (CCITT polynomial 0x1021, initial value 0, no reflection), two
    /// bytes, high byte first.
    case crc16

    /// How many bytes the check takes after the data.
    public var count: Int { self == .checksum ? 1 : 2 }

    /// The check bytes of `data`.
    public func bytes(of data: ArraySlice<UInt8>) -> [UInt8] {
        switch self {
        case .checksum:
            return [data.reduce(0, &+)]
        case .crc16:
            let crc = Self.crc16(data)
            return [UInt8(crc >> 8), UInt8(crc & 0xFF)]
        }
    }

    /// CRC-16/XMODEM of `data` (the check value of the ASCII `123456789` is 0x31C3).
    public static func crc16(_ data: ArraySlice<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in data {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 {
                crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
            }
        }
        return crc
    }
}
