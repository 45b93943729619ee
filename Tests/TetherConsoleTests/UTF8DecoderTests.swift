import Testing

@testable import TetherConsole

/// Typed UTF-8 arrives in reads of any size: a character split across two reads is
/// one character.
@Suite struct UTF8DecoderTests {
    @Test func aCharacterSplitAtAnyPointIsKeptWhole() {
        let text = "aé€😀b"
        let bytes = Array(text.utf8)
        for cut in 0...bytes.count {
            var decoder = UTF8Decoder()
            let scalars = decoder.decode(Array(bytes[..<cut])) + decoder.decode(Array(bytes[cut...]))
            #expect(String(String.UnicodeScalarView(scalars)) == text, "cut at \(cut)")
        }
    }

    @Test func aByteThatIsNoCharacterBecomesTheReplacementCharacter() {
        var decoder = UTF8Decoder()
        #expect(decoder.decode([0x61, 0xFF, 0x62]) == ["a", "\u{FFFD}", "b"])
        #expect(decoder.decode([0x80]) == ["\u{FFFD}"])
    }

    @Test func anIncompleteCharacterWaitsForTheRest() {
        var decoder = UTF8Decoder()
        #expect(decoder.decode([0xE2, 0x82]) == [])
        #expect(decoder.decode([0xAC]) == ["€"])
    }
}
