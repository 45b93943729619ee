import Testing
import TetherTransfer

/// Blocks, checks and YMODEM's block 0, byte for byte.
@Suite struct BlockTests {
    /// CRC-16/XMODEM's published check value.
    @Test func crc16OfTheCheckString() {
        #expect(BlockCheck.crc16(Array("123456789".utf8)[...]) == 0x31C3)
        #expect(BlockCheck.crc16.bytes(of: Array("123456789".utf8)[...]) == [0x31, 0xC3])
    }

    /// The checksum is the sum modulo 256.
    @Test func checksumWrapsAround() {
        #expect(BlockCheck.checksum.bytes(of: [0xFF, 0x02, 0x10][...]) == [0x11])
    }

    /// A short last piece is padded with 0x1A; number, complement, data, check.
    @Test func blockBytesOnTheWire() {
        let bytes = Block(number: 1, data: [0x41][...], size: 128).encoded(with: .checksum)
        #expect(bytes.count == 132)
        #expect(Array(bytes.prefix(4)) == [0x01, 0x01, 0xFE, 0x41])
        #expect(bytes[4] == 0x1A && bytes[130] == 0x1A)
        #expect(bytes[131] == UInt8((0x41 + 127 * 0x1A) % 256))
        let long = Block(number: 255, data: [][...], size: 1024).encoded(with: .crc16)
        #expect(long.count == 1029 && long[0] == 0x02 && long[1] == 0xFF && long[2] == 0x00)
    }

    /// Decoding finds a damaged complement or check.
    @Test func decodeFindsDamage() {
        let good = Block(number: 7, data: [1, 2, 3][...], size: 128).encoded(with: .crc16)
        #expect(Block.decode(good[...], check: .crc16) == .block(Block(number: 7, data: [1, 2, 3][...], size: 128)))
        var badComplement = good
        badComplement[2] = 0
        #expect(Block.decode(badComplement[...], check: .crc16) == .damaged)
        var badData = good
        badData[10] ^= 0x40
        #expect(Block.decode(badData[...], check: .crc16) == .damaged)
    }

    /// Block 0: name, NUL, size in decimal, time and mode in octal, NUL padding.
    @Test func headerFields() {
        let file = TransferFile(
            name: "u-boot.bin", data: Array(repeating: 0, count: 65_536), modificationTime: 8, mode: 0o644)
        let data = YModemHeader.data(for: file)
        #expect(data.count == 128)
        #expect(Array(data.prefix(24)) == Array("u-boot.bin\u{0}65536 10 644\u{0}".utf8))
        #expect(YModemHeader.parse(data) == .file(name: "u-boot.bin", size: 65_536, modificationTime: 8, mode: 0o644))
        #expect(YModemHeader.parse(YModemHeader.data(for: nil)) == .endOfBatch)
    }

    /// lrzsz's extra fields are ignored; a long name takes a 1024-byte block 0.
    @Test func headerFromOtherSenders() {
        let lrzsz = Array("a.bin\u{0}1025 14577233231 100644 0 1 1025\u{0}".utf8) + Array(repeating: 0, count: 90)
        #expect(
            YModemHeader.parse(lrzsz)
                == .file(name: "a.bin", size: 1025, modificationTime: 0o14577233231, mode: 0o100644))
        let long = TransferFile(name: String(repeating: "n", count: 200), data: [])
        #expect(YModemHeader.data(for: long).count == 1024)
    }

    /// A name with folders keeps its last part; a bare folder is no header.
    @Test func headerNameLosesItsFolders() {
        #expect(
            YModemHeader.parse(Array("../../etc/passwd\u{0}3\u{0}".utf8))
                == .file(name: "passwd", size: 3, modificationTime: nil, mode: nil))
        #expect(YModemHeader.parse(Array("../\u{0}3\u{0}".utf8)) == nil)
        #expect(YModemHeader.parse(Array("a\u{0}x12\u{0}".utf8)) == nil)
    }
}
