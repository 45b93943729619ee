import Testing

@testable import TetherViews

/// What a terminal leaves on a row once backspaces went back over it.
@Suite struct OverstrikeTests {
    private func applied(_ text: String) -> String {
        String(decoding: Overstrike.applied(Array(text.utf8)), as: UTF8.self)
    }

    /// U-Boot 2023.01's autoboot countdown, as it comes over the serial console.
    @Test func ubootCountdownShowsItsLastDigit() {
        #expect(
            applied("Hit any key to stop autoboot:  3 \u{08}\u{08}\u{08} 2 \u{08}\u{08}\u{08} 1 \u{08}\u{08}\u{08} 0 ")
                == "Hit any key to stop autoboot:  0 ")
    }

    /// A backspace at the start does nothing; one back over a multi-byte character takes
    /// the whole character; an invalid byte is one character.
    @Test func backspaceMovesByCharacters() {
        #expect(applied("\u{08}\u{08}ab") == "ab")
        #expect(applied("°C\u{08}\u{08}K") == "KC")
        #expect(Overstrike.applied([0x41, 0xFF, 0x08, 0x42]) == [0x41, 0x42])
    }

    /// Bytes without a backspace are returned as they are.
    @Test func plainTextIsUnchanged() {
        #expect(Overstrike.applied(Array("plain\u{1B}x\r".utf8)) == Array("plain\u{1B}x\r".utf8))
    }
}
