import Foundation
import Testing
import TetherSimulator

/// The escape key's local commands of `tether connect` in a real terminal (tmux): the
/// settings `c` shows after a change, and the one list of keys that `connect --help`,
/// the man page and the escape key's `?` all show.
@Suite(.serialized) struct ConnectKeysEndToEndTests {
    /// Every local command's key, and the line each list gives it.
    static let keys: [(key: String, summary: String)] = [
        ("?", "show this help"), ("q", "quit (exit 0)"), ("b", "send a break (250 ms)"), ("d", "toggle DTR"),
        ("r", "toggle RTS"), ("p", "pulse DTR"), ("B", "change the baud rate"), ("L", "show the modem lines"),
        ("c", "show the settings in force"), ("h", "toggle the hex view"), ("t", "toggle timestamps"),
        ("e", "toggle local echo"), ("l", "start or stop the log file"), ("f", "send a file's bytes"),
        ("w", "send bytes typed as hex pairs"), ("y", "send a file by YMODEM"), ("x", "send a file by XMODEM-1K"),
        ("Y", "receive files by YMODEM"), ("m", "switch between raw and line mode"),
        ("Ctrl-T", "send Ctrl-T itself to the device"),
    ]

    /// Whether `text` has a line `  KEY  summary…` for every key.
    static func listsEveryKey(_ text: String) -> [String] {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return keys.filter { key, summary in !lines.contains { $0.hasPrefix("\(key)  \(summary)") } }.map(\.key)
    }

    /// `--baud 9600`, then Ctrl-T B 57600 and a command: `c` showed `9600 8N1`, the
    /// settings of the open, not the rate the port then had.
    @Test func settingsAfterABaudRateChangeAreThePorts() throws {
        let folder = try TemporaryFolder()
        let simulator = try ConnectEndToEndTests.simulator("env", in: folder)
        defer { simulator.stop() }
        let terminal = try ConnectEndToEndTests.connect(folder, ["--baud", "9600"])
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.press("C-t", "c")
        #expect(terminal.waitForScreen(containing: "9600 8N1, dialect line;"), "\(terminal.screen)")
        terminal.press("C-t", "B")
        terminal.type("57600")
        terminal.press("Enter")
        #expect(
            terminal.waitForScreen(containing: "baud rate 57600 set; the port reports 57600 8N1"), "\(terminal.screen)")
        terminal.type("SETP?")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "SETP? → 22.0"))
        terminal.press("C-t", "c")
        #expect(terminal.waitForScreen(containing: "57600 8N1, dialect line;"), "\(terminal.screen)")
        #expect(simulator.clientAttributes.map { cfgetospeed([$0]) } == speed_t(B57600))
        #expect(terminal.quitsCleanly())
    }

    @Test func helpListsEveryKey() throws {
        let help = try Subprocess.run("tether", ["connect", "--help"])
        #expect(help.status == 0)
        #expect(Self.listsEveryKey(help.stdout) == [], "\(help.stdout)")
    }

    @Test func theManPageListsEveryKey() throws {
        let (_, rendered) = try ManPageEndToEndTests.render("tether")
        let text = rendered.stdout.replacing(/.\x{08}/, with: "")
        let connect = text.components(separatedBy: "tether connect").dropFirst().joined()
        #expect(Self.listsEveryKey(connect) == [], "\(connect)")
    }

    @Test func theEscapeKeysHelpListsEveryKey() throws {
        let folder = try TemporaryFolder()
        let simulator = try ConnectEndToEndTests.simulator("env", in: folder)
        defer { simulator.stop() }
        let terminal = try ConnectEndToEndTests.connect(folder)
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.press("C-t", "?")
        #expect(terminal.waitForScreen(containing: "send Ctrl-T itself to the device"))
        #expect(Self.listsEveryKey(terminal.screen) == [], "\(terminal.screen)")
        #expect(terminal.quitsCleanly())
    }
}
