import Synchronization
import TetherPresenter

/// A run's results as TAP (the Test Anything Protocol, version 13: `prove` and CI
/// harnesses read it), one test point per check as it is evaluated
/// (`tether run --format tap`).
///
/// ```
/// TAP version 13
/// ok 1 - checks.txt:1 *IDN? =~ ^TETHER
/// not ok 2 - checks.txt:2 SETP? == 25.0
///   ---
///   message: "expected == 25.0, got 22.0"
///   severity: fail
///   expected: "== 25.0"
///   actual: ["22.0"]
///   lines: ["> SETP?", "< 22.0"]
///   ...
/// ok 3 - checks.txt:3 AT+CSQ # SKIP not sent: device hung up
/// 1..3
/// ```
///
/// The plan (`1..N`) comes last, with the summary. A case that did not hold has a YAML
/// block (its values written as JSON, which YAML reads): `severity` is `fail`, or the
/// error's kind (`timeout`, `device_lost`); a script error is `Bail out!` with its
/// message. Device text is escaped (``ByteEscaping``), and `#` in a description as
/// `\#`, so a description never reads as a directive.
public final class TAPView: RunView {
    private struct State {
        var results = RunResults()
        var count = 0
        var started = false
        /// After `Bail out!` a harness reads nothing more.
        var bailedOut = false
    }

    private let output: any OutputSink
    private let state = Mutex(State())

    /// Creates the view writing to `output`.
    public init(output: any OutputSink = FileSink.standardOutput) {
        self.output = output
    }

    public func render(_ record: ViewRecord, state: ViewState) {
        self.state.withLock { $0.results.note(record, device: state.device) }
    }

    public func render(_ record: RunRecord) {
        let text = state.withLock { state in
            guard !state.bailedOut else { return "" }
            var text = state.started ? "" : "TAP version 13\n"
            state.started = true
            let made = state.results.add(record)
            if case .finished = record.event {
                // A device lost after the last check has a point of its own.
                if let made {
                    state.count += 1
                    text += Self.point(made, number: state.count)
                }
                return text + "1..\(state.count)\n"
            }
            guard let made else { return text }
            if case .error(kind: "script_error") = made.verdict {
                state.bailedOut = true
                return text + "Bail out! " + TextView.plain(made.detail ?? made.name) + "\n"
            }
            state.count += 1
            return text + Self.point(made, number: state.count)
        }
        if !text.isEmpty { output.write(text) }
    }

    private static func point(_ item: TestCase, number: Int) -> String {
        let name = TextView.plain(item.name).replacing("#", with: "\\#")
        switch item.verdict {
        case .passed:
            return "ok \(number) - \(name)\n"
        case .skipped:
            return "ok \(number) - \(name) # SKIP \(TextView.plain(item.detail ?? "not run"))\n"
        case .failed, .error:
            let severity = if case .error(let kind) = item.verdict { kind } else { "fail" }
            var yaml = ["message: " + json(.string(item.message)), "severity: " + severity]
            if let expected = item.expected { yaml.append("expected: " + json(.string(expected))) }
            if let actual = item.actual { yaml.append("actual: " + json(.array(actual.map(JSONValue.string)))) }
            if let detail = item.detail { yaml.append("detail: " + json(.string(detail))) }
            if !item.deviceLines.isEmpty {
                yaml.append("lines: " + json(.array(item.deviceLines.map(JSONValue.string))))
            }
            return "not ok \(number) - \(name)\n  ---\n" + yaml.map { "  " + $0 + "\n" }.joined() + "  ...\n"
        }
    }

    /// A value as one line of JSON (no line end).
    private static func json(_ value: JSONValue) -> String {
        var bytes: [UInt8] = []
        JSONWriter.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
