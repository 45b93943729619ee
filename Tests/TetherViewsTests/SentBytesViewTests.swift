import Foundation
import Testing
import TetherPresenter
import TetherViews

@testable import TetherModel

/// What views make of the bytes a device was sent and received: `sent` records with
/// the exact bytes, and received bytes that only a view asking for them sees.
@Suite struct SentBytesViewTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000.25)

    private func json(_ kinds: [DeviceEvent.Kind]) throws -> [[String: Any]] {
        let output = BufferSink()
        let view = JSONView(output: output)
        var presenter = Presenter(port: "/dev/ttyUSB0")
        for kind in kinds {
            for record in presenter.handle(DeviceEvent(time: time, kind: kind)) {
                view.render(record, state: presenter.state)
            }
        }
        return try output.text.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func sentRecordsCarryTheExactBytesWhenTheyAreNotPrintable() throws {
        let id = RequestID(value: 1)
        let objects = try json([
            .session(.sent(id, command: "*IDN?", bytes: Array("*IDN?".utf8))),
            .session(.sent(id, command: "\u{7F}\u{FFFD}\u{0}ABC", bytes: [0x7F, 0xFF, 0x00, 0x41, 0x42, 0x43])),
            .session(.sent(id, command: "\u{1B}[A", bytes: [0x1B, 0x5B, 0x41], isRaw: true)),
            .wroteNow([0x03]),
        ])
        #expect(objects[0]["command"] as? String == "*IDN?")
        #expect(objects[0]["command_hex"] == nil)
        #expect(objects[0]["write"] == nil)
        #expect(objects[1]["command_hex"] as? String == "7fff00414243")
        #expect(objects[2]["command_hex"] as? String == "1b5b41")
        #expect(objects[2]["write"] as? String == "raw")
        #expect(objects[3]["command_hex"] as? String == "03")
        #expect(objects[3]["write"] as? String == "immediate")
    }

    /// A command that is not UTF-8 shows its exact bytes in its exchange: escaped in
    /// text (`\xff`, not U+FFFD), as `command_hex` in JSON.
    @Test func anExchangeShowsTheCommandsExactBytes() throws {
        let id = RequestID(value: 1)
        let bytes: [UInt8] = [0x7F, 0xFF, 0x00, 0x41]
        let command = String(decoding: bytes, as: UTF8.self)
        let kinds: [DeviceEvent.Kind] = [
            .session(.sent(id, command: command, bytes: bytes)),
            .session(.replied(id, command: command, reply: Reply(lines: [Line("OK")]), roundTrip: .milliseconds(2))),
        ]
        let objects = try json(kinds)
        #expect(objects[1]["type"] as? String == "reply")
        #expect(objects[1]["command_hex"] as? String == "7fff0041")
        let output = BufferSink()
        let view = TextView(output: output, diagnostics: BufferSink(), environment: [:])
        var presenter = Presenter(port: "/dev/ttyUSB0")
        for kind in kinds {
            for record in presenter.handle(DeviceEvent(time: time, kind: kind)) {
                view.render(record, state: presenter.state)
            }
        }
        #expect(output.text.hasPrefix(#"\x7f\xff\x00A → OK"#), "\(output.text)")
    }

    /// Received bytes go to ``DeviceView/renderReceived(_:bytes:state:)``, never to
    /// `render`: the text and JSON views show nothing for them.
    @Test func receivedBytesGoToTheirOwnCallback() async throws {
        final class Recorder: DeviceView, @unchecked Sendable {
            var rendered: [ViewEvent] = []
            var received: [[UInt8]] = []
            func render(_ record: ViewRecord, state: ViewState) { rendered.append(record.event) }
            func renderReceived(_ record: ViewRecord, bytes: [UInt8], state: ViewState) { received.append(bytes) }
        }
        let recorder = Recorder()
        var presenter = Presenter(port: "/dev/ttyUSB0")
        presenter.present(
            [DeviceEvent(kind: .received([0x21, 0x0A])), DeviceEvent(kind: .session(.notification(Line("!"))))],
            to: recorder)
        #expect(recorder.received == [[0x21, 0x0A]])
        #expect(recorder.rendered.count == 1)
        let output = BufferSink()
        presenter.present([DeviceEvent(kind: .received([0x41]))], to: JSONView(output: output))
        #expect(output.text.isEmpty)
    }
}
