import Synchronization
import Testing
import TetherConsole
import TetherModel

/// `connect` from a pipe: each line a command in turn, escapes decoded, an empty line
/// the line end alone, and nothing more after a bad escape.
@Suite struct PipedConsoleTests {
    static func run(_ lines: [String]) async -> (end: PipedConsole.End, sent: [[UInt8]]) {
        let (stream, typing) = AsyncStream.makeStream(of: String.self)
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
}
