import Synchronization
import Testing
import TetherConsole
import TetherModel

/// `connect` from a pipe: each line a command in turn, escapes decoded, empty lines
/// skipped, and nothing more after a bad escape.
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
        let (end, sent) = await Self.run(["*IDN?", "", #"PRINT\x41\r"#, " "])
        #expect(end == .inputEnded)
        #expect(sent == [Array("*IDN?".utf8), Array("PRINTA\r".utf8), [0x20]])
    }

    @Test func aBadEscapeStopsBeforeItsLine() async {
        let (end, sent) = await Self.run(["A", #"B\q"#, "C"])
        guard case .badEscape(let error) = end else { return #expect(Bool(false), "\(end)") }
        #expect(error.text == #"B\q"# && error.position == 2 && error.escape == #"\q"#)
        #expect(sent == [Array("A".utf8)])
    }
}
