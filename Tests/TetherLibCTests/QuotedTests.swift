import Testing
import TetherLibC

/// How every error message quotes a value the user gave (``Quoted``).
@Suite struct QuotedTests {
    @Test func aShortValueIsQuotedWhole() {
        #expect(Quoted("9600x").description == "'9600x'")
        #expect(Quoted("").description == "''")
        #expect(Quoted("/dev/ttyUSB0").bare == "/dev/ttyUSB0")
        #expect(
            Quoted(String(repeating: "é", count: 100)).description == "'" + String(repeating: "é", count: 100) + "'")
    }

    /// A 100 KB argument made a 261 KB message: a long value shows its first 100
    /// scalars, then `…` and its length in bytes.
    @Test func aLongValueIsCutAndItsLengthNamed() {
        let value = String(repeating: "9", count: 100_000)
        let quoted = Quoted(value)
        #expect(quoted.description == "'" + String(repeating: "9", count: 100) + "…' (100000 bytes)")
        #expect(quoted.bare == String(repeating: "9", count: 100) + "… (100000 bytes)")
        // One character of many combining marks is cut too.
        let marks = "e" + String(repeating: "\u{301}", count: 50_000)
        #expect(Quoted(marks).description.utf8.count < 300)
        #expect(Quoted(marks).description.hasSuffix("…' (100001 bytes)"))
    }

    @Test func controlCharactersAreEscapedAndBackslashesKept() {
        #expect(Quoted("A\r\n\t\u{1B}]0;T\u{7}\u{7F}\u{85}\\q").description == #"'A\r\n\t\x1b]0;T\x07\x7f\xc2\x85\q'"#)
    }

    @Test func bytesThatAreNotUTF8AreShownAsEscapes() {
        #expect(Quoted(bytes: [0x41, 0xFF, 0xC3, 0x80, 0xC3]).description == #"'A\xffÀ\xc3'"#)
        #expect(Quoted(bytes: [UInt8](repeating: 0xFF, count: 1000)).description.hasSuffix("…' (1000 bytes)"))
    }
}
