import Testing
import TetherConsole

/// What the escape key's `w` takes as hex bytes.
@Suite struct HexBytesTests {
    @Test(arguments: [
        ("7f 00 ff", [0x7F, 0x00, 0xFF]), ("7F00Ff", [0x7F, 0x00, 0xFF]), ("0x7f\t0XFF  01", [0x7F, 0xFF, 0x01]),
        (" 0d0a ", [0x0D, 0x0A]),
    ])
    func pairsOfHexDigitsAreBytes(text: String, bytes: [Int]) {
        #expect(HexBytes(parsing: text)?.bytes == bytes.map { UInt8($0) })
    }

    @Test(arguments: ["7", "7g", "7f 0", "0x", "+f", "-0", "7f,00", "", "   ", "７f"])
    func anythingElseIsRefused(text: String) {
        #expect(HexBytes(parsing: text) == nil)
    }
}
