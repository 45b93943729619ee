import Foundation
import Testing
import TetherSimulator

/// `connect --mode raw` in a real terminal (tmux) against a device that reprograms it:
/// what passes, what is shown escaped instead, and the terminal as it was found after
/// every way out (docs/CONNECT.md, "Raw mode").
@Suite(.serialized) struct ConsoleTerminalModesEndToEndTests {
    typealias Chunk = ScriptedDevice.Chunk

    /// What a full-screen program leaves when it dies: the cursor hidden, the alternate
    /// screen, mouse reporting (button and SGR), bracketed paste, the application keypad
    /// and cursor keys, a scroll region, insert mode and red text — then `ready`.
    static let reprogramming =
        "\u{1b}[?25l\u{1b}[?1049h\u{1b}[?1000h\u{1b}[?1006h\u{1b}[?2004h\u{1b}=\u{1b}[?1h\u{1b}[2;20r\u{1b}[4h"
        + "\u{1b}[1;31mready "

    /// The modes, as tmux reports them, when nothing changed them.
    static let untouched: [String: String] = [
        "alternate_on": "0", "cursor_flag": "1", "mouse_any_flag": "0", "mouse_sgr_flag": "0",
        "mouse_standard_flag": "0", "keypad_flag": "0", "keypad_cursor_flag": "0", "insert_flag": "0",
    ]

    private func connect(_ device: ScriptedDevice, _ folder: TemporaryFolder, _ arguments: [String] = [])
        throws -> (Simulator, TmuxTerminal)
    {
        let simulator = try Simulator(
            device: device, link: folder.path("device"), transcript: Transcript(path: folder.path("sim.log")))
        let terminal = try TmuxTerminal(
            ["tether", "connect", folder.path("device")] + arguments,
            environment: ["XDG_STATE_HOME": folder.path("state")])
        return (simulator, terminal)
    }

    /// Each way out — Ctrl-T q, and SIGUSR1, SIGALRM and SIGPIPE, which tether does not
    /// handle and which end it as they end any program — leaves the terminal's settings
    /// and every mode the device set as they were before `connect`.
    @Test(arguments: [("quit", 0), ("USR1", 138), ("ALRM", 142), ("PIPE", 141)])
    func everyWayOutUndoesWhatTheDeviceSet(way: String, expected: Int) throws {
        let folder = try TemporaryFolder()
        let device = ScriptedDevice(onOpen: [Chunk(Self.reprogramming, after: .milliseconds(300))])
        let (simulator, terminal) = try connect(device, folder, ["--mode", "raw"])
        defer { simulator.stop() }
        #expect(terminal.waitForScreen(containing: "ready"), "\(terminal.screen)")
        let during = terminal.formats(Array(Self.untouched.keys))
        #expect(
            during["alternate_on"] == "1" && during["mouse_any_flag"] == "1", "the device's modes passed: \(during)")
        if way == "quit" {
            terminal.press("C-t", "q")
        } else {
            let pid = try #require(terminal.tetherPID)
            _ = try Subprocess.run(path: "/bin/kill", ["-\(way)", "\(pid)"])
        }
        #expect(terminal.waitForExit() == expected, "\(terminal.screen)")
        #expect(terminal.terminalSettingsUnchanged)
        #expect(terminal.formats(Array(Self.untouched.keys)) == Self.untouched)
        let exitLine = terminal.screenWithAttributes.split(separator: "\n").first { $0.contains("EXIT=") }
        #expect(
            exitLine.map { !$0.contains("\u{1b}[") } == true,
            "the shell's text is not red: \(String(describing: exitLine))")
    }

    /// Queries the terminal would answer by typing to the device (cursor position,
    /// device attributes, a window report) and a C1 control sent as UTF-8 (U+009B, the
    /// bytes `c2 9b`) are shown, not obeyed: the device receives no answer.
    @Test func queriesAreShownAndNeverAnswered() throws {
        let folder = try TemporaryFolder()
        let queries = "\u{1b}[6n\u{1b}[c\u{1b}[>c\u{1b}[21t\u{9b}6n done"
        let device = ScriptedDevice(onOpen: [Chunk(queries, after: .milliseconds(300))])
        let (simulator, terminal) = try connect(device, folder, ["--mode", "raw"])
        defer { simulator.stop() }
        #expect(terminal.waitForScreen(containing: "done"), "\(terminal.screen)")
        #expect(terminal.screen.contains(#"\x1b[6n\x1b[c\x1b[>c\x1b[21t\xc2\x9b6n done"#), "\(terminal.screen)")
        #expect(terminal.quitsCleanly())
        let received = TranscriptBytes.received(in: folder.path("sim.log"))
        #expect(!received.contains(0x1B), "the terminal answered the device: \(received)")
    }

    /// Line mode, first contact: `AT` sent with LF to a modem that wants CR gets no reply
    /// and nothing at all has come; the hint says once what to try.
    @Test func firstTimeoutWithASilentDeviceSaysWhatToTry() throws {
        let folder = try TemporaryFolder()
        let (simulator, terminal) = try connect(ScriptedDevice(), folder, ["--timeout", "1000"])
        defer { simulator.stop() }
        #expect(terminal.waitForScreen(containing: "line mode"), "\(terminal.screen)")
        terminal.type("AT")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "AT ✗ no reply within 1000 ms"), "\(terminal.screen)")
        terminal.type("ATI")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "ATI ✗ no reply within 1000 ms"), "\(terminal.screen)")
        let hints = terminal.screen.components(separatedBy: "hint: nothing received yet;").count - 1
        #expect(hints == 1, "\(terminal.screen)")
        #expect(terminal.screen.contains("try --eol cr or --eol crlf (a modem: --dialect at)"), "\(terminal.screen)")
        #expect(terminal.quitsCleanly())
    }
}

/// `connect` from a pipe, first contact: the hint goes to standard error once.
@Suite struct PipedFirstContactEndToEndTests {
    /// `AT` twice, sent with LF to a device that never answers: two timeouts, one hint.
    @Test func silentDeviceGetsTheHintOnce() throws {
        let simulator = try Simulator(device: ScriptedDevice())
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["connect", simulator.devicePath, "--timeout", "300"], stdin: "AT\nAT\n", timeout: 60)
        #expect(result.stdout == "AT ✗ no reply within 300 ms\nAT ✗ no reply within 300 ms\n", "\(result.stdout)")
        let hints = result.stderr.components(separatedBy: "hint: nothing received yet;").count - 1
        #expect(hints == 1, "\(result.stderr)")
    }

    /// A device that answers gets no hint, whatever times out later.
    @Test func aDeviceThatAnsweredGetsNoHint() throws {
        let result = try Subprocess.run(
            "tether", ["connect", "--sim", "--timeout", "300"], stdin: "*IDN?\nNOSUCH?\n", timeout: 60)
        #expect(result.stdout.contains("*IDN? → "), "\(result.stdout)")
        #expect(!result.stderr.contains("hint:"), "\(result.stderr)")
    }
}
