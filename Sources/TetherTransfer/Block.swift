/// One XMODEM/YMODEM block on the wire: `SOH` (128 data bytes) or `STX` (1024), the
/// block number (modulo 256), its one's complement, the data, and the check
/// (``BlockCheck``).
public struct Block: Sendable, Equatable {
    /// The data size of an `SOH` block, in bytes.
    public static let shortSize = 128
    /// The data size of an `STX` block, in bytes.
    public static let longSize = 1024

    /// The block number modulo 256 (block 0 is YMODEM's file header; data starts at 1).
    public var number: UInt8
    /// The data: 128 or 1024 bytes.
    public var data: [UInt8]

    /// A block of `data`, padded to `size` with `padding` (0x1A, CP/M end of file, for
    /// file data; NUL for a YMODEM header).
    public init(number: UInt8, data: ArraySlice<UInt8>, size: Int, padding: UInt8 = ControlByte.padding) {
        self.number = number
        self.data = Array(data) + Array(repeating: padding, count: max(0, size - data.count))
    }

    /// The block's bytes as sent.
    public func encoded(with check: BlockCheck) -> [UInt8] {
        var bytes = [data.count == Self.shortSize ? ControlByte.soh : ControlByte.stx, number, ~number]
        bytes.reserveCapacity(3 + data.count + check.count)
        bytes += data
        bytes += check.bytes(of: data[...])
        return bytes
    }

    /// What a received block's bytes hold.
    public enum Decoded: Sendable, Equatable {
        /// A good block.
        case block(Block)
        /// The number's complement or the check is wrong.
        case damaged
    }

    /// The length on the wire of a block that starts with `header` (SOH or STX), or
    /// `nil` for another byte.
    public static func wireLength(header: UInt8, check: BlockCheck) -> Int? {
        switch header {
        case ControlByte.soh: 3 + shortSize + check.count
        case ControlByte.stx: 3 + longSize + check.count
        default: nil
        }
    }

    /// Decodes exactly one block's bytes (``wireLength(header:check:)`` of them).
    public static func decode(_ bytes: ArraySlice<UInt8>, check: BlockCheck) -> Decoded {
        let start = bytes.startIndex
        let number = bytes[start + 1]
        guard bytes[start + 2] == ~number else { return .damaged }
        let data = bytes[(start + 3)..<(bytes.endIndex - check.count)]
        guard check.bytes(of: data) == Array(bytes[(bytes.endIndex - check.count)...]) else { return .damaged }
        return .block(Block(number: number, data: data, size: data.count))
    }
}
