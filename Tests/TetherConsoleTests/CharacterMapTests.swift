import Foundation
import Testing
import TetherPresenter
import TetherViews

@testable import TetherConsole

/// `--map`'s flags (tio's): what each does to bytes received and typed, and its parsing.
@Suite struct CharacterMapTests {
    @Test(arguments: [
        ("ICRNL", "a\r\nb\r", "a\n\nb\n"), ("IGNCR", "a\r\nb\r", "a\nb"), ("INLCR", "a\nb", "a\rb"),
        ("INLCRNL", "a\nb\r\n", "a\r\nb\r\r\n"), ("IGNCR,INLCRNL", "a\r\n", "a\r\n"), ("OLTU", "a\r\n", "a\r\n"),
    ])
    func receivedBytes(flags: String, received: String, shown: String) throws {
        let map = try CharacterMap(parsing: flags)
        #expect(map.received(Array(received.utf8)) == Array(shown.utf8))
    }

    @Test(arguments: [
        ("OCRNL", "ls\r", "ls\n"), ("ONLCRNL", "ls\n", "ls\r\n"), ("OIGNCR", "ls\r\n", "ls\n"),
        ("ODELBS", "lx\u{7f}s", "lx\u{8}s"), ("OLTU", "at+csq?\r", "AT+CSQ?\r"), ("ICRNL", "ls\r", "ls\r"),
        ("oltu, ocrnl", "ok\r", "OK\n"),
    ])
    func typedBytes(flags: String, typed: String, sent: String) throws {
        let map = try CharacterMap(parsing: flags)
        #expect(map.typed(Array(typed.utf8)) == Array(sent.utf8))
    }

    @Test func noFlagsChangeNothing() {
        let bytes: [UInt8] = Array(0...255)
        #expect(CharacterMap().received(bytes) == bytes)
        #expect(CharacterMap().typed(bytes) == bytes)
    }

    @Test(arguments: ["CRLF", "ICRNL,", "", "ICRNL;OLTU"])
    func anUnknownFlagIsRefused(text: String) {
        #expect(throws: (any Error).self) { try CharacterMap(parsing: text) }
    }

    /// Raw mode's keys and line mode's lines are sent mapped.
    @Test func theConsoleSendsTypedTextMapped() async throws {
        let screen = RecordingScreen(mode: .raw)
        let view = ConsoleView(
            terminal: screen,
            settings: ConsoleView.Settings(mode: .raw, showsHex: false, showsTimestamps: false, log: nil, logPath: nil))
        let device = RecordingDevice()
        let console = Console(
            terminal: screen, view: view, device: device, timeout: nil, escape: 0x14, enter: .cr, logPath: nil,
            portName: "/dev/ttyS0", dialectName: "line", map: try CharacterMap(parsing: "OLTU,ODELBS"))
        screen.type(.keystrokes(Array("ab\u{7f}".utf8)), .line("ls -l"), finish: true)
        _ = await console.run()
        #expect(device.sentItems == [.bytes(Array("AB\u{8}".utf8)), .line(Array("LS -L".utf8), timeout: nil)])
    }

    /// Raw mode shows the received bytes mapped; the hex view shows them as they came.
    @Test func rawModeShowsReceivedBytesMapped() throws {
        for showsHex in [false, true] {
            let screen = RecordingScreen(mode: .raw)
            let view = ConsoleView(
                terminal: screen,
                settings: ConsoleView.Settings(
                    mode: .raw, showsHex: showsHex, showsTimestamps: false, log: nil, logPath: nil),
                map: try CharacterMap(parsing: "INLCRNL"))
            let bytes = Array("a\nb".utf8)
            view.renderReceived(
                ViewRecord(time: Date(), event: .received(bytes)), bytes: bytes, state: ViewState(port: "/dev/ttyS0"))
            #expect(screen.bytes == Array((showsHex ? "61 0a 62 " : "a\r\nb").utf8))
        }
    }

    @Test(arguments: [
        (ColorChoice.auto, true, [String: String](), true), (.auto, false, [:], false),
        (.auto, true, ["NO_COLOR": "1"], false),
        (.auto, true, ["NO_COLOR": ""], true), (.never, true, [:], false), (.always, false, ["NO_COLOR": "1"], true),
    ])
    func colour(choice: ColorChoice, isTerminal: Bool, environment: [String: String], coloured: Bool) {
        #expect(choice.usesColour(onTerminal: isTerminal, environment: environment) == coloured)
    }
}
