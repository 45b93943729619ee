import Foundation
import Testing

/// File transfers on a real terminal (tmux): `connect`'s Ctrl-T y / Ctrl-T Y with the
/// file prompt (Tab, `~`), its progress line and last line, Ctrl-C during a transfer;
/// `tether send`'s progress bar. Against lrzsz on a slow line (Harness/lrzsz_line.py
/// `--rate`), so that the progress is on the screen long enough to be captured.
@Suite(.serialized) struct TransferTerminalEndToEndTests {
    typealias Line = TransferEndToEndTests.Line

    /// 20 000 bytes a second, about a 230 400 baud line: 64 KiB take some 3 s.
    static let rate = 20_000

    /// A bar part way: `[#####.......]  NN%`.
    static func showsBarPartWay(_ screen: String) -> Bool {
        guard let bar = try? Regex(#"\[#+\.+\] +\d+% "#) else { return false }
        return screen.contains(bar)
    }

    /// Ctrl-T y, `~/fir` and Tab in the prompt, Enter: the file goes to `rb` by YMODEM,
    /// the progress line shows, then the last line; the session goes on.
    @Test func connectSendsByYModemFromThePrompt() throws {
        let home = try TemporaryFolder()
        let target = try TemporaryFolder()
        let data = TransferEndToEndTests.data(64 * 1024, seed: 21)
        try data.write(to: home.url.appendingPathComponent("firmware.bin"))
        let line = try Line(["sh"], in: target.url.path, rate: Self.rate)
        let terminal = try TmuxTerminal(
            ["tether", "connect", line.port],
            environment: ["HOME": home.url.path, "XDG_STATE_HOME": home.path("state")])
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.type("sleep 3; rb")  // as a user starts the receiver on a board's shell
        terminal.press("Enter")
        terminal.press("C-t", "y")
        #expect(terminal.waitForScreen(containing: "send by ymodem:"))
        terminal.type("~/fir")
        terminal.press("Tab")
        #expect(terminal.waitForScreen(containing: "send by ymodem: ~/firmware.bin"), "\(terminal.screen)")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(timeout: 60) { Self.showsBarPartWay($0) }, "\(terminal.screen)")
        #expect(terminal.waitForScreen(containing: "Sent 1 file by ymodem in ", timeout: 60), "\(terminal.screen)")
        #expect(FileManager.default.contents(atPath: target.path("firmware.bin")) == data)
        #expect(terminal.quitsCleanly(), "\(terminal.screen)")
        line.process.send(SIGTERM)
    }

    /// Ctrl-T Y: `sb` sends a file, which lands in tether's current folder.
    @Test func connectReceivesByYModemIntoTheCurrentFolder() throws {
        let source = try TemporaryFolder()
        let target = try TemporaryFolder()
        let data = TransferEndToEndTests.data(5000, seed: 22)
        try data.write(to: source.url.appendingPathComponent("log.bin"))
        let line = try Line(["sh"], in: source.url.path)
        let terminal = try TmuxTerminal(
            ["tether", "connect", line.port], environment: ["XDG_STATE_HOME": target.path("state")],
            directory: target.url.path)
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.type("sleep 2; sb log.bin")
        terminal.press("Enter")
        terminal.press("C-t", "Y")
        #expect(terminal.waitForScreen(containing: "Received 1 file by ymodem in ", timeout: 60), "\(terminal.screen)")
        #expect(terminal.screen.contains("received ./log.bin (5000 bytes)"), "\(terminal.screen)")
        #expect(FileManager.default.contents(atPath: target.path("log.bin")) == data)
        #expect(terminal.quitsCleanly(), "\(terminal.screen)")
        line.process.send(SIGTERM)
    }

    /// Ctrl-C while the transfer waits for the receiver: cancelled, said so, and the
    /// session goes on (Ctrl-T q still quits with 0).
    @Test func ctrlCCancelsTheTransferNotTheSession() throws {
        let home = try TemporaryFolder()
        try Data([1, 2, 3]).write(to: home.url.appendingPathComponent("a.bin"))
        let line = try Line(["sleep", "60"], in: home.url.path)
        let terminal = try TmuxTerminal(
            ["tether", "connect", line.port, "--mode", "raw"], environment: ["XDG_STATE_HOME": home.path("state")])
        #expect(terminal.waitForScreen(containing: "raw mode"))
        terminal.press("C-t", "x")
        #expect(terminal.waitForScreen(containing: "send by xmodem-1k:"))
        terminal.type(home.path("a.bin"))
        terminal.press("Enter")
        #expect(
            terminal.waitForScreen(containing: "Sending a.bin by xmodem-1k: waiting for the receiver (Ctrl-C cancels)"),
            "\(terminal.screen)")
        terminal.press("C-c")
        #expect(terminal.waitForScreen(containing: "transfer failed after 0 B: cancelled"), "\(terminal.screen)")
        #expect(terminal.quitsCleanly(), "\(terminal.screen)")
        line.process.send(SIGTERM)
    }

    /// `tether send` on a terminal: the bar part way (`[####....] NN%`), then the
    /// summary line.
    @Test func sendShowsItsProgressBar() throws {
        let source = try TemporaryFolder()
        let target = try TemporaryFolder()
        let data = TransferEndToEndTests.data(64 * 1024, seed: 23)
        try data.write(to: source.url.appendingPathComponent("image.bin"))
        let line = try Line(["rb"], in: target.url.path, rate: Self.rate)
        let terminal = try TmuxTerminal(["tether", "send", line.port, source.path("image.bin")])
        #expect(terminal.waitForScreen(timeout: 60) { Self.showsBarPartWay($0) }, "\(terminal.screen)")
        #expect(terminal.screen.contains("image.bin ["), "\(terminal.screen)")
        #expect(terminal.waitForExit(timeout: 60) == 0, "\(terminal.screen)")
        #expect(terminal.screen.contains("Sent 1 file by ymodem in "), "\(terminal.screen)")
        #expect(FileManager.default.contents(atPath: target.path("image.bin")) == data)
    }
}
