import Foundation
import Testing
import TetherSimulator

/// `connect --map` (tio's flags) and `--init-string` (picocom's), through a real
/// terminal (tmux) and a pipe, against the simulator's record of what it received.
@Suite(.serialized) struct ConnectMapEndToEndTests {
    /// OLTU and ODELBS change what is typed; the init string goes first, as a command
    /// with the dialect's line end.
    @Test func mapsAndTheInitStringInRawMode() throws {
        let folder = try TemporaryFolder()
        let simulator = try ConnectEndToEndTests.simulator("env", in: folder)
        defer { simulator.stop() }
        let terminal = try ConnectEndToEndTests.connect(
            folder, ["--mode", "raw", "--enter", "lf", "--map", "OLTU,ODELBS,INLCRNL", "--init-string", "RATE 0"])
        #expect(terminal.waitForScreen(containing: "raw mode"))
        #expect(
            waitUntil { ConnectEndToEndTests.received(folder) == "RATE 0\n" },
            "\(ConnectEndToEndTests.received(folder))")
        terminal.type("setp?x")
        terminal.press("BSpace", "Enter")
        #expect(
            waitUntil { ConnectEndToEndTests.received(folder) == "RATE 0\nSETP?X\u{8}\n" },
            "\(ConnectEndToEndTests.received(folder))")
        #expect(terminal.quitsCleanly())
    }

    @Test func theInitStringGoesFirstFromAPipeToo() throws {
        let folder = try TemporaryFolder()
        let simulator = try ConnectEndToEndTests.simulator("env", in: folder)
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["connect", folder.path("device"), "--init-string", "\\x01RATE 0"], stdin: "SETP?\n")
        #expect(result.status == 0, "\(result.stderr)")
        // Its reply is its own, not the first piped line's.
        #expect(result.stdout.contains("\\x01RATE 0 ✗ ERR -113"), "\(result.stdout)")
        #expect(result.stdout.contains("SETP? → 22.0"), "\(result.stdout)")
        #expect(ConnectEndToEndTests.received(folder) == "\u{1}RATE 0\nSETP?\n")
    }

    /// `--map` acts on the terminal: from a pipe it is refused, not ignored.
    @Test func terminalOptionsAreRefusedFromAPipe() throws {
        let result = try Subprocess.run("tether", ["connect", "--sim", "--map", "OLTU"], stdin: "SETP?\n")
        #expect(result.status == 64)
        #expect(result.stderr.contains("'--map' needs a terminal"), "\(result.stderr)")
    }

    /// `--color never` was refused with standard output a pipe; each choice is taken
    /// there, and says whether the text on standard output is coloured.
    @Test(arguments: [("never", false), ("auto", false), ("always", true)])
    func colourIsAChoiceFromAPipeToo(choice: String, colours: Bool) throws {
        let result = try Subprocess.run(
            "tether", ["connect", "--sim", "--quiet", "--timestamps", "--color", choice], stdin: "SETP?\n",
            environment: ["NO_COLOR": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("SETP? → "), "\(result.stdout)")
        #expect(result.stdout.contains("\u{1B}[") == colours, "\(result.stdout)")
    }
}
