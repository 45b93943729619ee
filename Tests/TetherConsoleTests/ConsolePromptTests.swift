import Foundation
import Synchronization
import Testing
import TetherPresenter

@testable import TetherConsole

/// A console's prompt, told from the text a line device leaves after its last line
/// end (``ConsolePrompt``), and `connect`'s switch to raw mode at one.
@Suite struct ConsolePromptTests {
    @Test(arguments: [
        "=> ", "# ", "uart:~$ ", "root@box:/etc# ", ">>> ", "login: ", "U-Boot>", "\u{1b}[1;32muart:~$ \u{1b}[m",
        "Router#", "% ",
    ])
    func aPromptIsOne(text: String) {
        #expect(ConsolePrompt.isPrompt(Array(text.utf8)))
    }

    @Test(arguments: [
        "", " ", "Environment size: 11", "TEMP 21.5", "=>  ", "=> \u{1}", "\u{1b}[1;32m", "=> \u{1b}",
        String(repeating: "x", count: 64) + "> ", "Hit any key to stop autoboot:  2",
    ])
    func otherTextIsNot(text: String) {
        #expect(!ConsolePrompt.isPrompt(Array(text.utf8)))
    }

    /// A line mode view on `screen` that has received `text`.
    static func view(on screen: RecordingScreen, switchesAtPrompt: Bool, received text: String) -> ConsoleView {
        var settings = ConsoleView.Settings(
            mode: .line, showsHex: false, showsTimestamps: false, log: nil, logPath: nil)
        settings.switchesAtPrompt = switchesAtPrompt
        let view = ConsoleView(terminal: screen, settings: settings)
        let bytes = Array(text.utf8)
        view.renderReceived(
            ViewRecord(time: Date(), event: .received(bytes)), bytes: bytes, state: ViewState(port: "/dev/ttyS0"))
        return view
    }

    /// The view asks the terminal to switch at a prompt only when the mode was chosen
    /// for the user.
    @Test func theViewSwitchesAtAPromptWhenAsked() {
        for switches in [false, true] {
            let screen = RecordingScreen(mode: .line)
            _ = Self.view(on: screen, switchesAtPrompt: switches, received: "GNU ld 2.40\r\n=> ")
            #expect(screen.shown == [switches ? .prompt("=>  [unterminated]") : .tail("=>  [unterminated]")])
        }
    }

    /// `promptSeen` (the terminal switched): said once, naming the prompt, then what
    /// line mode has not shown shown raw; the view is in raw mode and switches no more.
    /// A reply the session still held (settling after a timeout) was never shown: only
    /// the prompt was, after the message.
    @Test(arguments: [
        (["version\r\nTBoot\r\n=> "], false, "version\r\nTBoot\r\n=> "),
        (["version\r\nTBoot\r\n=> "], true, "=> "),
        (["TBoot\r\n", "=> "], true, "=> "),
    ])
    func theConsoleSaysOnceWhatItChose(received: [String], shownAsRecord: Bool, shown: String) async {
        let screen = RecordingScreen(mode: .line)
        let view = Self.view(on: screen, switchesAtPrompt: true, received: received[0])
        if shownAsRecord {
            view.render(
                ViewRecord(time: Date(), event: .notification(ViewLine("TBoot"), readings: [])),
                state: ViewState(port: "/dev/ttyS0"))
        }
        for text in received.dropFirst() {
            view.renderReceived(
                ViewRecord(time: Date(), event: .received(Array(text.utf8))), bytes: Array(text.utf8),
                state: ViewState(port: "/dev/ttyS0"))
        }
        let console = Console(
            terminal: screen, view: view, device: RecordingDevice(), timeout: .milliseconds(500), escape: 0x14,
            enter: .cr, logPath: nil, portName: "/dev/ttyS0", dialectName: "line")
        screen.mode = .raw  // as the terminal does before it reports promptSeen
        screen.type(.promptSeen, finish: true)
        _ = await console.run()
        #expect(
            screen.text.hasSuffix(
                "'=> ' looks like a console's prompt: raw mode (keys as typed); Ctrl-T m for line mode\n"))
        #expect(screen.bytes == Array(shown.utf8))
        #expect(view.settings.withLock { ($0.mode, $0.switchesAtPrompt) } == (.raw, false))
    }
}
