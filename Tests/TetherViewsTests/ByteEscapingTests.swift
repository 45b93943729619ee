import Testing
import TetherViews

@Suite struct ByteEscapingTests {
    @Test func controlAndInvalidBytesAreEscaped() {
        #expect(ByteEscaping.escaped([0x41, 0x42, 0x00, 0x43, 0x44]) == "AB\\x00CD")
        #expect(ByteEscaping.escaped(Array("12.50\r".utf8)) == "12.50\\r")
        #expect(ByteEscaping.escaped([0x2D, 0x87, 0x44, 0x99, 0x2F]) == "-\\x87D\\x99/")
        #expect(ByteEscaping.escaped([0x1B, 0x5B, 0x33, 0x31, 0x6D]) == "\\x1b[31m")
        #expect(ByteEscaping.escaped(Array("A\u{13}B\u{11}C".utf8)) == "A\\x13B\\x11C")
        #expect(ByteEscaping.escaped(Array("a\\b".utf8)) == "a\\\\b")
    }

    @Test func printableUnicodeIsKept() {
        #expect(ByteEscaping.escaped(Array("Temp 21.5 °C — ok".utf8)) == "Temp 21.5 °C — ok")
        #expect(ByteEscaping.escaped(Array("\u{85}".utf8)) == "\\xc2\\x85")
    }

    /// A script's own expectation text keeps its backslashes (`PASS … =~ ^-?\\d+` was
    /// shown as `^-?\\\\d+`); control bytes are still escaped.
    @Test func userTextKeepsBackslashes() {
        #expect(
            ByteEscaping.escaped(Array("TEMP? =~ ^-?\\d+\u{1B}".utf8), escapesBackslash: false)
                == "TEMP? =~ ^-?\\d+\\x1b")
    }

    @Test func hex() {
        #expect(ByteEscaping.hex([0x01, 0x0D, 0x0A]) == "01 0d 0a")
    }

    @Test func hexAtMostALimitEndsInAnEllipsisWhenMoreAreLeft() {
        #expect(ByteEscaping.hex([0x01, 0x0D, 0x0A], atMost: 3) == "01 0d 0a")
        #expect(ByteEscaping.hex([0x01, 0x0D, 0x0A, 0xFF], atMost: 3) == "01 0d 0a …")
        #expect(ByteEscaping.hex([UInt8](), atMost: 3) == "")
    }
}
