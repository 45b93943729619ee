import Foundation
import Testing
import TetherPresenter
import TetherViews

@testable import TetherModel

/// What views make of tether's line control: `line_sequence`, `lines_set` and
/// `settings_changed` records (docs/JSON.md, "Line control"), and their text lines.
@Suite struct LineControlViewTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000.25)
    let kinds: [DeviceEvent.Kind] = [
        .lineControl(
            .sequence(
                name: "esptool-classic",
                steps: [LineStep(dtr: false, rts: true, hold: .milliseconds(100)), LineStep(isBreak: true)])),
        .lineControl(.lines(LineStep(dtr: false, rts: true))),
        .lineControl(.settingsChanged(settings: "921600 8N1")),
    ]

    @Test func jsonRecordsNameTheStepsAndTheSettings() throws {
        let output = BufferSink()
        let view = JSONView(output: output)
        var presenter = Presenter(port: "/dev/ttyUSB0")
        for kind in kinds {
            for record in presenter.handle(DeviceEvent(time: time, kind: kind)) {
                view.render(record, state: presenter.state)
            }
        }
        let objects = try output.text.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["type"] as? String } == ["line_sequence", "lines_set", "settings_changed"])
        #expect(objects[0]["name"] as? String == "esptool-classic")
        let steps = try #require(objects[0]["steps"] as? [[String: Any]])
        #expect(steps[0]["dtr"] as? Bool == false && steps[0]["rts"] as? Bool == true)
        #expect(steps[0]["hold_ms"] as? Int == 100 && steps[0]["break"] == nil)
        #expect(steps[1]["break"] as? Bool == true && steps[1]["dtr"] == nil)
        #expect(objects[1]["dtr"] as? Bool == false && objects[1]["rts"] as? Bool == true)
        #expect(objects[2]["settings"] as? String == "921600 8N1")
        #expect(presenter.state.settings == "921600 8N1")
    }

    @Test func textLinesSayWhatWasDone() {
        let diagnostics = BufferSink()
        let view = TextView(output: BufferSink(), diagnostics: diagnostics, environment: [:])
        var presenter = Presenter(port: "/dev/ttyUSB0")
        for kind in kinds {
            for record in presenter.handle(DeviceEvent(time: time, kind: kind)) {
                view.render(record, state: presenter.state)
            }
        }
        #expect(
            diagnostics.text == """
                line sequence esptool-classic: DTR=off RTS=on 100 ms, break=on
                lines set: DTR=off RTS=on
                settings now 921600 8N1

                """)
    }
}
