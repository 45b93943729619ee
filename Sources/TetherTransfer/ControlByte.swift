/// The control bytes of XMODEM and YMODEM (Forsberg, "XMODEM/YMODEM PROTOCOL REFERENCE").
public enum ControlByte {
    /// Start of a 128-byte block.
    public static let soh: UInt8 = 0x01
    /// Start of a 1024-byte block.
    public static let stx: UInt8 = 0x02
    /// End of the file.
    public static let eot: UInt8 = 0x04
    /// Acknowledged.
    public static let ack: UInt8 = 0x06
    /// Not acknowledged: send again (and, at the start, "use the checksum").
    public static let nak: UInt8 = 0x15
    /// Cancel: two in a row end the transfer.
    public static let can: UInt8 = 0x18
    /// `C`: the receiver asks for CRC-16.
    public static let crcRequest: UInt8 = 0x43
    /// CP/M end of file: pads the last block.
    public static let padding: UInt8 = 0x1A

    /// What either side writes to cancel: five CAN (two are enough; more survive a
    /// byte lost on a noisy line), as lrzsz does.
    public static let cancelSequence: [UInt8] = Array(repeating: can, count: 5)
}
