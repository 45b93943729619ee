import Synchronization
import Testing
import TetherModel

@testable import TetherConsole

/// `connect` from a pipe: each line a command in turn, escapes decoded, an empty line
/// the line end alone, and nothing more after a bad escape.
@Suite struct PipedConsoleTests {
    static func run(_ lines: [String]) async -> (end: PipedConsole.End, sent: [[UInt8]]) {
        await run(bytes: lines.map { Array($0.utf8) })
    }

    static func run(bytes lines: [[UInt8]]) async -> (end: PipedConsole.End, sent: [[UInt8]]) {
        let (stream, typing) = AsyncStream.makeStream(of: [UInt8].self)
        for line in lines { typing.yield(line) }
        typing.finish()
        let sent = Mutex<[[UInt8]]>([])
        let end = await PipedConsole.run(stream, typesOnATerminal: false) { bytes in
            sent.withLock { $0.append(bytes) }
        }
        return (end, sent.withLock { $0 })
    }

    @Test func eachLineIsSentInTurnItsEscapesDecoded() async {
        let (end, sent) = await Self.run(["*IDN?", #"PRINT\x41\r"#, " "])
        #expect(end == .inputEnded)
        #expect(sent == [Array("*IDN?".utf8), Array("PRINTA\r".utf8), [0x20]])
    }

    /// `printf '*IDN?\n\n \nTEMP?\n' | tether connect --sim` sent the space but not the
    /// empty line, which a typed Enter on an empty line sends (the line end alone).
    @Test func anEmptyLineIsSentAsTheEmptyCommand() async {
        let (end, sent) = await Self.run(["*IDN?", "", " ", "TEMP?"])
        #expect(end == .inputEnded)
        #expect(sent == [Array("*IDN?".utf8), [], [0x20], Array("TEMP?".utf8)])
    }

    @Test func aBadEscapeStopsBeforeItsLine() async {
        let (end, sent) = await Self.run(["A", #"B\q"#, "C"])
        guard case .badEscape(let error) = end else { return #expect(Bool(false), "\(end)") }
        #expect(error.text == #"B\q"# && error.position == 2 && error.escape == #"\q"#)
        #expect(sent == [Array("A".utf8)])
    }

    /// `printf '\xffA\n' | tether connect --sim` sent `ef bf bd 41`: a line's bytes that
    /// are not valid UTF-8 are sent as they are, beside its escapes.
    @Test func bytesThatAreNotUTF8AreSentAsTheyAre() async {
        let (end, sent) = await Self.run(bytes: [
            [0xFF, 0x41], [0x80], [0xC3], [0x41, 0x00, 0x42], [0xC3, 0x5C, 0x72],
        ])
        #expect(end == .inputEnded)
        #expect(sent == [[0xFF, 0x41], [0x80], [0xC3], [0x41, 0x00, 0x42], [0xC3, 0x0D]])
    }

    /// A bad escape after a byte that is not UTF-8 is named at its position, the byte
    /// counted as one character.
    @Test func aBadEscapeAfterAnInvalidByteIsNamedAtItsPosition() async {
        let (end, _) = await Self.run(bytes: [[0xFF, 0x5C, 0x71]])
        guard case .badEscape(let error) = end else { return #expect(Bool(false), "\(end)") }
        #expect(error.position == 2 && error.escape == #"\q"#)
    }

    /// Standard input is cut at LF (a CR before it dropped) with nothing decoded, a
    /// line split across reads kept whole, and a last line without a line end kept.
    @Test func standardInputIsCutIntoLinesOfExactBytes() {
        var splitter = StandardInput.LineSplitter()
        #expect(splitter.lines(in: [0xFF, 0x41, 0x0A, 0x80][...]) == [[0xFF, 0x41]])
        #expect(splitter.lines(in: [0xC3, 0x0D, 0x0A, 0x0A, 0x00][...]) == [[0x80, 0xC3], []])
        #expect(splitter.rest == [0x00])
    }
}
