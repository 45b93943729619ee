/// A file-transfer protocol of Chuck Forsberg's "XMODEM/YMODEM PROTOCOL REFERENCE"
/// (docs/TRANSFERS.md).
public enum TransferProtocol: String, CaseIterable, Sendable {
    /// XMODEM: 128-byte blocks with a one-byte checksum (the receiver starts with NAK).
    case xmodem
    /// XMODEM-CRC: 128-byte blocks with CRC-16 (the receiver starts with `C`).
    case xmodemCRC = "xmodem-crc"
    /// XMODEM-1K: 1024-byte blocks with CRC-16.
    case xmodem1K = "xmodem-1k"
    /// YMODEM batch: 1024-byte blocks with CRC-16, each file announced by block 0
    /// (name, size, modification time, mode), the batch ended by an empty block 0.
    case ymodem

    /// The name on the command line and in JSON records (`xmodem-1k`).
    public var name: String { rawValue }

    /// Whether files are announced by a block 0 with their name and size.
    public var isBatch: Bool { self == .ymodem }

    /// The data block size a sender uses, in bytes (when the receiver asks for CRC-16).
    public var blockSize: Int {
        switch self {
        case .xmodem, .xmodemCRC: Block.shortSize
        case .xmodem1K, .ymodem: Block.longSize
        }
    }

    /// The check a receiver asks for: checksum for `xmodem`, CRC-16 for the others.
    public var check: BlockCheck {
        self == .xmodem ? .checksum : .crc16
    }
}
