import Foundation
import Synchronization
import Testing
import TetherModel

@testable import TetherConsole
@testable import TetherPresenter

/// What `connect`'s view shows on the terminal and writes to the log, per mode.
@Suite struct ConsoleViewTests {
    struct Harness {
        let screen: RecordingScreen
        let log = RecordingView()
        let view: ConsoleView

        init(mode: ConsoleMode, showsHex: Bool = false, mapsCR: Bool = false) {
            screen = RecordingScreen(mode: mode)
            view = ConsoleView(
                terminal: screen,
                settings: ConsoleView.Settings(
                    mode: mode, showsHex: showsHex, showsTimestamps: false, log: log, logPath: "session.jsonl"),
                mapsCR: mapsCR)
        }

        /// Hands `bytes` to the view as the Presenter does with a `received` record.
        func receive(_ bytes: [UInt8]) {
            view.renderReceived(
                ViewRecord(time: Date(), event: .received(bytes)), bytes: bytes, state: ViewState(port: "/dev/ttyUSB0"))
        }

        func render(_ events: ViewEvent..., settings: String? = nil) {
            var state = ViewState(port: "/dev/ttyUSB0")
            state.settings = settings
            for event in events { view.render(ViewRecord(time: Date(), event: event), state: state) }
        }
    }

    static let reply = ViewEvent.exchanged(
        Exchange(
            command: "*IDN?",
            outcome: .reply(
                lines: [ViewLine(bytes: Array("TETHER,ENV-1".utf8))], finalResult: nil, isError: false,
                roundTrip: .milliseconds(3)), time: Date()))
    static let notification = ViewEvent.notification(ViewLine(bytes: Array("!READING".utf8)), readings: [])

    @Test func rawModeShowsReceivedBytesMadeSafe() {
        let harness = Harness(mode: .raw)
        harness.receive(Array("ok\r\n\u{1b}]0;title\u{7}".utf8))
        harness.receive([0x00])
        #expect(harness.screen.bytes == Array("ok\r\n\\x1b]0;title\u{7}\\x00".utf8))
    }

    /// What the device changed through raw mode reaches the terminal as the undo it
    /// writes when it stops; a device that puts it back leaves nothing to undo.
    @Test func rawModeHandsTheUndoOfTheDevicesModesToTheTerminal() {
        let harness = Harness(mode: .raw)
        harness.receive(Array("\u{1b}[?25l\u{1b}[?2004h".utf8))
        #expect(String(decoding: harness.screen.undo, as: UTF8.self) == "\u{1b}[?25h\u{1b}[?2004l")
        harness.receive(Array("\u{1b}[?25h\u{1b}[?2004l".utf8))
        #expect(harness.screen.undo.isEmpty)
    }

    /// A switch to line mode undoes what the device set, there and then.
    @Test func switchingToLineModeUndoesTheDevicesModesAtOnce() {
        let harness = Harness(mode: .raw)
        harness.receive(Array("\u{1b}[?1049h".utf8))
        harness.view.undoDeviceModes()
        #expect(harness.screen.bytes == Array("\u{1b}[?1049h\u{1b}[?1049l".utf8))
        #expect(harness.screen.undo.isEmpty)
    }

    static func timedOut(_ command: String) -> ViewEvent {
        .exchanged(Exchange(command: command, outcome: .timedOut(timeout: .milliseconds(1000)), time: Date()))
    }

    /// Line mode: `AT` sent with LF to a modem that wants CR — nothing at all came; the
    /// hint is said once, after the first timeout only.
    @Test func firstTimeoutWithNothingReceivedGetsTheHintOnce() {
        let harness = Harness(mode: .line)
        harness.view.hint(atFirstContact: FirstContactHint(sending: .lf, dialect: "line"))
        harness.render(Self.timedOut("AT"), Self.timedOut("AT"))
        #expect(
            harness.screen.text
                == "AT ✗ no reply within 1000 ms\n"
                + "hint: nothing received yet; try --eol cr or --eol crlf (a modem: --dialect at), and check --baud\n"
                + "AT ✗ no reply within 1000 ms\n")
    }

    /// Once something came from the device, a timeout is only a timeout.
    @Test func noHintOnceTheDeviceHasSentAnything() {
        let harness = Harness(mode: .line)
        harness.view.hint(atFirstContact: FirstContactHint(sending: .lf, dialect: "line"))
        harness.receive(Array("booting\r\n".utf8))
        harness.render(Self.timedOut("AT"))
        #expect(!harness.screen.text.contains("hint:"), "\(harness.screen.text)")
    }

    /// The hint suggests only what was not sent: in the `at` dialect (CR) the other two
    /// line ends, and no `--dialect at`.
    @Test func hintSuggestsWhatWasNotTried() {
        #expect(
            FirstContactHint(sending: .cr, dialect: "at").text
                == "hint: nothing received yet; try --eol crlf or --eol lf, and check --baud")
    }

    @Test func rawModeShowsHexPairsWhenAsked() {
        let harness = Harness(mode: .raw, showsHex: true)
        harness.receive([0x6F, 0x6B, 0x0D])
        harness.receive([0xFF])
        #expect(String(decoding: harness.screen.bytes, as: UTF8.self) == "6f 6b 0d ff ")
    }

    @Test func rawModeCanEndLinesAtCR() {
        let harness = Harness(mode: .raw, mapsCR: true)
        harness.receive(Array("a\rb".utf8))
        #expect(harness.screen.bytes == Array("a\r\nb".utf8))
    }

    /// Raw mode shows the bytes themselves: of the records, only what happens to the
    /// connection. The log has the connection's records and what was sent, but not the
    /// session's lines: it has the bytes they were read from (below).
    @Test func rawModeShowsOnlyConnectionRecords() {
        let harness = Harness(mode: .raw)
        harness.render(
            .connected(port: "/dev/ttyUSB0", settings: "115200 8N1"), Self.notification, Self.reply,
            .sent(command: ViewLine("*IDN?")))
        #expect(harness.screen.text == "connected to /dev/ttyUSB0 (115200 8N1)\n")
        #expect(harness.log.rendered.count == 2)
    }

    @Test func lineModeShowsRepliesAndNotificationsButNotWhatWasSent() {
        let harness = Harness(mode: .line)
        harness.render(
            .sent(command: ViewLine("*IDN?")), Self.reply, Self.notification, .pendingText(ViewLine(bytes: [0x3E])))
        #expect(harness.screen.text == "*IDN? → TETHER,ENV-1  (3 ms)\n!READING\n")
        #expect(harness.log.rendered.count == 4)
    }

    /// Line mode shows whole lines as records; of the bytes, only those after the
    /// last line end, held until the device is quiet: a prompt.
    @Test func lineModeHoldsTheTextAfterTheLastLineEnd() {
        let harness = Harness(mode: .line)
        harness.receive(Array("boot\r\nlogin: ".utf8))
        harness.receive(Array("\u{1}".utf8))
        harness.receive(Array("\r\n".utf8))
        #expect(
            harness.screen.shown == [.tail("login:  [unterminated]"), .tail("login: \\x01 [unterminated]"), .tail(nil)])
    }

    @Test func lineModeHoldsAtMost256BytesOfText() {
        let harness = Harness(mode: .line, showsHex: true)
        harness.receive([UInt8](repeating: 0x41, count: 200))
        harness.receive([UInt8](repeating: 0x42, count: 200))
        let held = [UInt8](repeating: 0x41, count: 200) + [UInt8](repeating: 0x42, count: 56)
        #expect(
            harness.screen.shown.last
                == .tail(held.map { String($0, radix: 16) }.joined(separator: " ") + " [unterminated]"))
    }

    /// Keystrokes are raw writes: the log has them as such, sent; the screen shows the
    /// device's echo, if any, not the write. Received bytes are shown and logged as they
    /// came — blank lines and all — not as the notification lines the session made of
    /// them, which held the typed text's echo and dropped blank lines.
    @Test func keystrokesAreLoggedAsRawWritesAndReceivedBytesAsTheyCame() {
        let harness = Harness(mode: .raw)
        harness.render(.sent(command: ViewLine("ab"), kind: .raw))
        harness.receive(Array("ab".utf8))
        #expect(harness.log.rendered == [.sent(command: ViewLine("ab"), kind: .raw), .received(Array("ab".utf8))])
        #expect(harness.screen.shown == [.bytes(Array("ab".utf8))])
    }

    @Test func theSettingsShownAreThoseOfTheLatestConnection() {
        let harness = Harness(mode: .line)
        harness.render(.connected(port: "/dev/ttyUSB0", settings: "9600 8N1"), settings: "9600 8N1")
        #expect(harness.view.settings.withLock { $0.portSettings } == "9600 8N1")
        harness.render(Self.notification)
        #expect(harness.view.settings.withLock { $0.portSettings } == "9600 8N1")
    }
}
