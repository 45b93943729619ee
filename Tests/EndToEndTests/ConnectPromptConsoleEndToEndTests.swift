import Foundation
import Testing
import TetherSimulator

/// `tether connect` with no `--mode` in a real terminal (tmux): a console (a prompt
/// after its output, then quiet) is recognised and gets raw mode, said once, so the
/// screen shows what picocom shows; a line device keeps line mode.
@Suite(.serialized) struct ConnectPromptConsoleEndToEndTests {
    /// Against the simulator's `prompt-console`, Enter (which it ignores, so the line
    /// times out), `version`, `printenv` showed `=>  [unterminated]`, a settling note
    /// and `[in doubt…]`. After the timeout the session still held `version`'s reply,
    /// settling, when the prompt came: raw mode shows it.
    @Test(arguments: [false, true])
    func theSimulatorsConsoleGetsRawMode(enterFirst: Bool) throws {
        let folder = try TemporaryFolder()
        let simulator = try ConnectEndToEndTests.simulator("prompt-console", in: folder)
        defer { simulator.stop() }
        let terminal = try ConnectEndToEndTests.connect(folder)
        #expect(terminal.waitForScreen(containing: "line mode"))
        if enterFirst {
            terminal.press("Enter")
            #expect(terminal.waitForScreen(containing: "no reply within 1000 ms"), "\(terminal.screen)")
        }
        terminal.type("version")
        terminal.press("Enter")
        #expect(
            terminal.waitForScreen(
                containing: "'=> ' looks like a console's prompt: raw mode (keys as typed); Ctrl-T m for line mode"),
            "\(terminal.screen)")
        terminal.type("printenv")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "Environment size: 112/8188 bytes\n=>"), "\(terminal.screen)")
        #expect(terminal.screen.contains("TBoot 2024.04-sim (tether simulator)"), "\(terminal.screen)")
        #expect(terminal.screen.contains("=> printenv\nbaudrate=115200\n"), "\(terminal.screen)")
        for noise in ["[unterminated]", "in doubt", "note:"] + (enterFirst ? [] : ["✗"]) {
            #expect(!terminal.screen.contains(noise), "\(terminal.screen)")
        }
        #expect(terminal.screen.components(separatedBy: "looks like a console's prompt").count == 2)
        #expect(ConnectEndToEndTests.received(folder) == (enterFirst ? "\n" : "") + "version\nprintenv\r")
        #expect(terminal.quitsCleanly())
    }

    /// Typed at the line before the switch (`print`, while the prompt was still held
    /// back): it was dropped with the line editor; it goes on as keys.
    @Test func whatWasTypedBeforeTheSwitchIsKept() throws {
        let folder = try TemporaryFolder()
        let simulator = try ConnectEndToEndTests.simulator("prompt-console", in: folder)
        defer { simulator.stop() }
        let terminal = try ConnectEndToEndTests.connect(folder)
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.type("version")
        terminal.press("Enter")
        terminal.type("print")
        #expect(terminal.waitForScreen(containing: "looks like a console's prompt"), "\(terminal.screen)")
        terminal.type("env")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "=> printenv\nbaudrate=115200"), "\(terminal.screen)")
        #expect(ConnectEndToEndTests.received(folder) == "version\nprintenv\r")
        #expect(terminal.quitsCleanly())
    }

    /// A line device's replies end with their line ends: line mode stays.
    @Test func aLineDeviceKeepsLineMode() throws {
        let folder = try TemporaryFolder()
        let simulator = try ConnectEndToEndTests.simulator("env", in: folder)
        defer { simulator.stop() }
        let terminal = try ConnectEndToEndTests.connect(folder)
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.type("SETP?")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "SETP? → 22.0"))
        Thread.sleep(forTimeInterval: 1)
        terminal.type("HUM?")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "HUM? → "))
        #expect(!terminal.screen.contains("looks like a console's prompt"), "\(terminal.screen)")
        #expect(terminal.quitsCleanly())
    }

    /// A real U-Boot under QEMU: Enter at its prompt, then `version`, as picocom shows.
    @Test func realUBootGetsRawMode() throws {
        let board = try UBootBoard()
        board.powerOn()
        #expect(board.waitUntilRunsCommands())
        let terminal = try TmuxTerminal(["tether", "connect", board.console])
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "looks like a console's prompt: raw mode"), "\(terminal.screen)")
        terminal.type("version")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "=> version\nU-Boot 2023.01"), "\(terminal.screen)")
        #expect(terminal.waitForScreen { $0.split(separator: "\n").last == "=>" }, "\(terminal.screen)")
        #expect(!terminal.screen.contains("✗"), "\(terminal.screen)")
        #expect(terminal.quitsCleanly())
    }
}
