import Testing
import TetherCommandLine
import TetherConsole

/// `connect`'s console options as parsed, and which of them need a terminal.
@Suite struct ConsoleOptionsTests {
    static let spec = CommandSpec(
        program: "tether", name: "connect", abstract: "", options: ConsoleOptions.declarations)

    static func parse(_ arguments: [String]) throws -> ConsoleOptions {
        ConsoleOptions(try ParsedArguments(arguments, spec: spec))
    }

    @Test func theDefaultsAreCtrlTAndCRWithTheModeLeftToTheDialect() throws {
        let options = try Self.parse([])
        #expect(options.mode == nil)
        #expect(options.escape == 0x14)
        #expect(options.enter == .cr)
        #expect(!options.echoes && !options.mapsCR)
        #expect(options.terminalOnlyOption == nil)
    }

    @Test func theValuesGivenAreRead() throws {
        let options = try Self.parse(["--mode", "line", "--escape", "^A", "--echo", "--map-cr", "--enter", "crlf"])
        #expect(options.mode == .line)
        #expect(options.escape == 0x01)
        #expect(options.enter == .crlf)
        #expect(options.echoes && options.mapsCR)
    }

    /// Without a terminal, `connect` sends each input line: `--mode line` changes
    /// nothing there, the others would be ignored, so they are named.
    @Test(arguments: [
        (["--mode", "line"], nil), (["--mode", "raw", "--echo"], "--mode raw"), (["--echo"], "--echo"),
        (["--enter", "lf", "--escape", "^A"], "--escape"), (["--map-cr"], "--map-cr"),
    ])
    func theOptionsThatNeedATerminalAreNamed(arguments: [String], named: String?) throws {
        #expect(try Self.parse(arguments).terminalOnlyOption == named)
    }
}
