import Foundation
import Testing
import TetherPresenter
import TetherSerial
import TetherViews

@testable import TetherModel

/// Log levels in the views: each level's colour in text on a terminal (none with
/// `NO_COLOR` or `--color never`), a `level` field in JSON, the counts in the state.
@Suite struct LogLevelViewTests {
    static let lines = ["E (10) app: failed", "W (11) app: slow", "I (12) app: ok", "D (13) app: tick", "plain"]

    private func render(onTerminal: Bool = false, with view: (BufferSink) -> any DeviceView) -> String {
        let output = BufferSink(isTerminal: onTerminal)
        let chosen = view(output)
        var presenter = Presenter(port: "/dev/ttyUSB0")
        for line in Self.lines {
            for record in presenter.handle(
                DeviceEvent(time: Date(timeIntervalSince1970: 0), kind: .session(.notification(Line(line)))))
            {
                chosen.render(record, state: presenter.state)
            }
        }
        chosen.finish(presenter.state)
        return output.text
    }

    @Test func textColoursEachLevel() {
        let text = render { TextView(output: $0, diagnostics: BufferSink(), colour: .always) }
        #expect(
            text == """
                \u{1B}[31mE (10) app: failed\u{1B}[0m
                \u{1B}[33mW (11) app: slow\u{1B}[0m
                \u{1B}[36mI (12) app: ok\u{1B}[0m
                \u{1B}[2mD (13) app: tick\u{1B}[0m
                \u{1B}[36mplain\u{1B}[0m

                """)
    }

    /// On a terminal colour is on by default; `NO_COLOR` (any non-empty value) and
    /// `--color never` turn it off.
    @Test func noColorLeavesTheLinesPlain() {
        let coloured = render(onTerminal: true) { TextView(output: $0, diagnostics: BufferSink(), environment: [:]) }
        let auto = render(onTerminal: true) {
            TextView(output: $0, diagnostics: BufferSink(), environment: ["NO_COLOR": "1"])
        }
        let never = render(onTerminal: true) {
            TextView(output: $0, diagnostics: BufferSink(), environment: [:], colour: .never)
        }
        #expect(coloured.contains("\u{1B}[31mE (10) app: failed"))
        #expect(auto == Self.lines.map { $0 + "\n" }.joined())
        #expect(never == auto)
    }

    @Test func jsonHasALevelField() throws {
        let records = try render { JSONView(output: $0) }.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.map { $0["level"] as? String } == ["error", "warning", "info", "debug", nil])
    }

    @Test func theStateRecordCountsThem() throws {
        let output = BufferSink()
        let view = JSONStateView(output: output)
        var presenter = Presenter(port: "/dev/ttyUSB0")
        for line in Self.lines {
            _ = presenter.handle(
                DeviceEvent(time: Date(timeIntervalSince1970: 0), kind: .session(.notification(Line(line)))))
        }
        view.finish(presenter.state)
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(output.text.split(separator: "\n").last.map(String.init)!.utf8))
                as? [String: Any])
        let counts = try #require(record["counts"] as? [String: Int])
        #expect(counts["error_lines"] == 1 && counts["warning_lines"] == 1)
        #expect(counts["info_lines"] == 1 && counts["debug_lines"] == 1 && counts["notifications"] == 5)
    }
}
