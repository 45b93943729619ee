import Foundation
import Testing
import TetherPresenter
import TetherSerial
import TetherViews

@testable import TetherModel

/// Line events in the views and the view state: a JSON `line_event` record each
/// (docs/JSON.md), a line in text and in the transcript, counted in `counts`.
@Suite struct LineEventViewTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000.25)
    static let events: [LineEvent] = [
        .lineBreak, .framingError(byte: 0x7E), .modemLines([.cts, .dsr], changed: [.dcd]),
        .modemLines([.cts, .dsr, .dcd, .ri], changed: [.ri]),
    ]

    private func render(with view: (BufferSink) -> any DeviceView) -> (text: String, state: ViewState) {
        let output = BufferSink()
        let chosen = view(output)
        var presenter = Presenter(port: "/dev/ttyUSB0")
        for event in Self.events {
            for record in presenter.handle(DeviceEvent(time: time, kind: .lineEvent(event))) {
                chosen.render(record, state: presenter.state)
            }
        }
        return (output.text, presenter.state)
    }

    @Test func jsonHasALineEventRecordEach() throws {
        let lines = render { JSONView(output: $0) }.text.split(separator: "\n")
        let records = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        #expect(records.map { $0["type"] as? String } == Array(repeating: "line_event", count: 4))
        #expect(records.map { $0["event"] as? String } == ["break", "framing_error", "modem_lines", "modem_lines"])
        #expect(records[1]["byte_hex"] as? String == "7e")
        #expect(records[0]["byte_hex"] == nil)
        #expect(records[2]["dcd"] as? Bool == false)
        #expect(records[2]["cts"] as? Bool == true)
        #expect(records[2]["changed"] as? [String] == ["dcd"])
        #expect(records[3]["ri"] as? Bool == true)
    }

    @Test func textSaysWhatHappened() {
        let text = render { TextView(output: $0, diagnostics: BufferSink(), environment: [:]) }.text
        #expect(
            text
                == "break received\nframing error (byte 0x7E)\nDCD off (carrier lost)\nRI on (ringing)\n")
    }

    @Test func theTranscriptNotesThem() {
        let text = render { TranscriptView(output: $0, timestamps: Timestamper(.hour24Start)) }.text
        #expect(
            text.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) } == [
                "* break received", "* framing error (byte 0x7E)", "* DCD off (carrier lost)", "* RI on (ringing)",
            ])
    }

    @Test func theStateCountsThem() {
        let state = render { JSONView(output: $0) }.state
        #expect(state.counts.breaks == 1)
        #expect(state.counts.lineErrors == 1)
        #expect(state.counts.modemLineChanges == 2)
        #expect(state.alerts.map(\.line.text) == ["break received", "framing error (byte 0x7E)"])
        #expect(state.alerts.map(\.kind) == [.lineEvent, .lineEvent])
    }
}
