/// A file sent or received: its name and data, and what YMODEM's block 0 says of it.
public struct TransferFile: Sendable, Equatable {
    /// The name without a folder (`u-boot.bin`); `nil` for a file received by XMODEM,
    /// which carries no name.
    public var name: String?
    /// The file's bytes. Received by XMODEM they end with the padding of the last
    /// block (0x1A up to a multiple of 128 or 1024 bytes): XMODEM carries no size.
    public var data: [UInt8]
    /// The modification time, in seconds since 1970 (YMODEM only).
    public var modificationTime: Int?
    /// The Unix mode, with the file type bits as `stat` gives it and lrzsz sends it
    /// (0o100644 for a plain file with rw-r--r--) (YMODEM only).
    public var mode: Int?

    /// Creates a file.
    public init(name: String?, data: [UInt8], modificationTime: Int? = nil, mode: Int? = nil) {
        self.name = name
        self.data = data
        self.modificationTime = modificationTime
        self.mode = mode
    }
}
