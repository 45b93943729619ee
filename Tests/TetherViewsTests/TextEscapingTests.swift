import Foundation
import Testing
import TetherViews

@testable import TetherPresenter

/// Every piece of device or user text the text view prints is escaped: no record can
/// write a raw control byte (ESC above all) to the terminal.
@Suite struct TextEscapingTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000)
    static let escape = "\u{1B}[2J"

    private func rendered(_ event: ViewEvent, device: String? = nil) -> (output: String, diagnostics: String) {
        let output = BufferSink()
        let diagnostics = BufferSink()
        TextView(output: output, diagnostics: diagnostics, environment: [:])
            .render(ViewRecord(time: time, event: event), state: ViewState(port: "p", device: device))
        return (output.text, diagnostics.text)
    }

    /// Control bytes other than the line feed that ends each line.
    private func rawControls(_ text: String) -> [UInt8] {
        text.utf8.filter { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }
    }

    /// An empty command (the line end alone) is named, not left blank: `late reply to  (…`
    /// was seen after `query … '*IDN?' '' 'TEMP?'`.
    @Test func aSettlingNoteNamesAnEmptyCommand() {
        let (_, diagnostics) = rendered(.settling(SettlingNote(.noLateReply, command: "")))
        #expect(diagnostics.contains("stopped waiting for the late reply to (empty line) (docs/"), "\(diagnostics)")
    }

    @Test func aLateReplyShowsTheCommandEscaped() {
        let (output, _) = rendered(.lateReply(command: "AT\(Self.escape)", lines: [ViewLine("OK")]))
        #expect(output == "late reply to AT\\x1b[2J: OK\n")
    }

    @Test func aPartialReplyShowsTheCommandEscaped() {
        let (output, _) = rendered(.partialReply(command: "x\u{07}\u{1B}", lines: [ViewLine(bytes: [0x1B, 0x41])]))
        #expect(output == "incomplete reply to x\\x07\\x1b: \\x1bA\n")
    }

    static let events: [ViewEvent] = [
        .waiting(for: "/tmp/w\(escape)"),
        .connected(port: "/tmp/a\(escape)", settings: "115200 8N1\(escape)"),
        .sent(command: ViewLine(escape)),
        .exchanged(
            Exchange(
                command: "Q\(escape)",
                outcome: .reply(
                    lines: [ViewLine(escape)], finalResult: ViewLine("ERR\(escape)"), isError: true,
                    roundTrip: .milliseconds(1)), time: Date(), errorDescription: "bad \(escape)")),
        .exchanged(Exchange(command: "T\(escape)", outcome: .failed(reason: "gone \(escape)"), time: Date())),
        .notification(ViewLine(escape), readings: []),
        .disconnected(port: "/tmp/b\(escape)", reason: "EIO \(escape)"),
        .reconnecting(port: "/tmp/c\(escape)"),
        .reconnected(port: "/tmp/d\(escape)", settings: "s\(escape)", attempts: 1, downtime: .seconds(1)),
        .warning("w\(escape)"),
        .settingNotApplied(
            SettingWarning(port: "/tmp/e\(escape)", setting: "parity", requested: "odd", actual: "n\(escape)")),
    ]

    /// Each record is shown, with the sequence escaped (`\x1b[2J`), and nothing raw;
    /// `sent` is shown by no text line (the reply shows the command).
    @Test(arguments: events)
    func noRecordWritesARawControlByte(event: ViewEvent) {
        let (output, diagnostics) = rendered(event, device: "dev\(Self.escape)")
        #expect(rawControls(output).isEmpty, "\(output.debugDescription)")
        #expect(rawControls(diagnostics).isEmpty, "\(diagnostics.debugDescription)")
        let isShown: Bool = if case .sent = event { false } else { true }
        #expect((output + diagnostics).contains("\\x1b[2J") == isShown, "\((output + diagnostics).debugDescription)")
    }

    @Test func runRecordsEscapeLocationsDevicesMessagesAndKeys() {
        let output = BufferSink()
        let diagnostics = BufferSink()
        let view = TextView(output: output, diagnostics: diagnostics, environment: [:])
        let location = SourceLocation(file: "a\(Self.escape).lua", line: 1)
        view.render(
            RunRecord(
                time: time,
                event: .checked(
                    CheckResult(
                        status: .failed, location: location, description: "d\(Self.escape)",
                        device: "n\(Self.escape)", actual: ["r\(Self.escape)"], detail: "x\(Self.escape)"))))
        view.render(
            RunRecord(time: time, event: .emitted(.object(["k\(Self.escape)": .string("v")]), location: location)))
        view.render(
            RunRecord(time: time, event: .scriptFailed(ScriptProblem(location: location, message: "m\(Self.escape)"))))
        #expect(rawControls(output.text).isEmpty, "\(output.text.debugDescription)")
        #expect(rawControls(diagnostics.text).isEmpty, "\(diagnostics.text.debugDescription)")
        #expect(diagnostics.text == "Error: m\\x1b[2J\n")
    }
}
