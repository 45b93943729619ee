import Testing

@testable import TetherModel

/// The one decoder of escapes in commands (``CommandText/bytes(fromEscaped:)``).
@Suite struct CommandTextEscapeTests {
    @Test func escapesStandForTheirBytes() throws {
        #expect(try CommandText.bytes(fromEscaped: #"\x7f\xff\x00ABC"#) == [0x7F, 0xFF, 0x00, 0x41, 0x42, 0x43])
        #expect(try CommandText.bytes(fromEscaped: #"PRINT 2+2\r"#) == Array("PRINT 2+2\r".utf8))
        #expect(try CommandText.bytes(fromEscaped: #"\t\n\e\\\xAb"#) == [0x09, 0x0A, 0x1B, 0x5C, 0xAB])
        #expect(try CommandText.bytes(fromEscaped: "é") == [0xC3, 0xA9])
        #expect(try CommandText.bytes(fromEscaped: "") == [])
        #expect(try CommandText.bytes(fromEscaped: " ") == [0x20])
    }

    @Test func everyByteValueCanBeWritten() throws {
        for value in 0...255 {
            let hex = String(value, radix: 16)
            let text = "\\x" + (hex.count == 1 ? "0" + hex : hex)
            #expect(try CommandText.bytes(fromEscaped: text) == [UInt8(value)])
        }
    }

    @Test(arguments: [
        (#"A\qB"#, 2, #"\q"#), (#"\x4"#, 1, #"\x4"#), (#"ab\xZZ"#, 3, #"\xZZ"#), (#"end\"#, 4, #"\"#),
        (#"\x١٢"#, 1, #"\x١٢"#),
    ])
    func aBadEscapeIsNamedWithItsPosition(text: String, position: Int, escape: String) {
        #expect(throws: CommandText.EscapeError(text: text, position: position, escape: escape)) {
            try CommandText.bytes(fromEscaped: text)
        }
    }

    @Test func aBlankCommandIsACommandButALiteralLineBreakIsNot() {
        #expect(CommandText.problem(in: "") == nil)
        #expect(CommandText.problem(in: " ") == nil)
        #expect(CommandText.problem(in: "A\nB") == .lineBreak)
        #expect(CommandText.problem(in: #"A\nB"#) == nil)
    }
}
