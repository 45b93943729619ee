import Foundation
import Testing
import TetherPresenter

@testable import TetherViews

/// ``JUnitView`` and ``TAPView``: what a device says never breaks the report's syntax.
@Suite struct TestReportViewTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000)

    private func records() -> [RunRecord] {
        let failed = CheckResult(
            status: .failed, location: SourceLocation(file: "a<b>.txt", line: 2), description: "Q? == \"x\" & y # z",
            actual: ["\u{1}bad</failure>"], expected: "== \"x\" & y")
        var summary = RunSummary()
        summary.failed = 1
        summary.outcome = .failed
        summary.duration = .milliseconds(1500)
        return [
            RunRecord(time: time, event: .checked(failed)),
            RunRecord(time: time.addingTimeInterval(1.5), event: .finished(summary)),
        ]
    }

    @Test func junitEscapesMarkupAndControlCharacters() throws {
        let sink = BufferSink()
        let view = JUnitView(output: sink)
        for record in records() { view.render(record) }
        let xml = sink.text
        #expect(xml.contains(#"<testsuite name="a&lt;b&gt;.txt" tests="1" failures="1" errors="0" skipped="0""#))
        #expect(xml.contains(#"name="a&lt;b&gt;.txt:2 Q? == &quot;x&quot; &amp; y # z""#), "\(xml)")
        #expect(xml.contains("actual: \\x01bad&lt;/failure&gt;"), "\(xml)")
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(
            xml.contains(#"<testsuites name="tether run" tests="1" failures="1" errors="0" skipped="0" time="1.500">"#))
    }

    @Test func tapEscapesTheDirectiveMarkInDescriptions() {
        let sink = BufferSink()
        let view = TAPView(output: sink)
        for record in records() { view.render(record) }
        #expect(
            sink.text.hasPrefix("TAP version 13\nnot ok 1 - a<b>.txt:2 Q? == \"x\" & y \\# z\n  ---\n"), "\(sink.text)")
        #expect(sink.text.contains("  actual: [\"\\u0001bad</failure>\"]\n"), "\(sink.text)")
        #expect(sink.text.hasSuffix("  ...\n1..1\n"))
    }
}
