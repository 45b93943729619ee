import FoundationEssentials
import Synchronization
import TetherPresenter

/// A run's results as one JUnit XML report, the format Jenkins, GitLab and GitHub
/// Actions read (the `testsuites`/`testsuite`/`testcase` elements of Jenkins' JUnit
/// schema), written when the run's summary comes (`tether run --junit FILE`, or
/// `--format junit` on standard output).
///
/// ```xml
/// <testsuites name="tether run" tests="2" failures="1" errors="0" skipped="0" time="0.031">
///   <testsuite name="checks.txt" tests="2" failures="1" errors="0" skipped="0" time="0.031" timestamp="…">
///     <testcase name="checks.txt:1 *IDN? =~ ^TETHER" classname="checks.txt" time="0.012"/>
///     <testcase name="checks.txt:2 SETP? == 25.0" classname="checks.txt" time="0.019">
///       <failure type="failed" message="expected == 25.0, got 22.0">…the device lines…</failure>
///     </testcase>
///   </testsuite>
/// </testsuites>
/// ```
///
/// One `testsuite` per script and device, one `testcase` per check (`RunResults`):
/// a check that did not hold is a `failure`, a timeout, a device lost or a script
/// error an `error`, a check never run `skipped`; each carries the expected and the
/// actual value and the device lines around it. Times are seconds. Device text is
/// escaped (``ByteEscaping``), so the file holds no character XML 1.0 forbids.
public final class JUnitView: RunView {
    private let output: any OutputSink
    private let results = Mutex(RunResults())

    /// Creates the view writing the report to `output`.
    public init(output: any OutputSink = FileSink.standardOutput) {
        self.output = output
    }

    public func render(_ record: ViewRecord, state: ViewState) {
        results.withLock { $0.note(record, device: state.device) }
    }

    public func render(_ record: RunRecord) {
        let finished = results.withLock { results in
            results.add(record)
            return results.summary == nil ? nil : results
        }
        if let finished { output.write(Self.document(finished)) }
    }

    /// The XML document of a finished run.
    static func document(_ results: RunResults) -> String {
        var suites: [(name: String, cases: [TestCase])] = []
        for item in results.cases {
            if let index = suites.firstIndex(where: { $0.name == item.suite }) {
                suites[index].cases.append(item)
            } else {
                suites.append((item.suite, [item]))
            }
        }
        let total = results.summary.map { Double($0.duration.milliseconds) / 1000 } ?? 0
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"tether run\"\(counts(results.cases)) time=\"\(seconds(total))\">\n"
        for suite in suites {
            let time = suite.cases.reduce(0) { $0 + $1.seconds }
            let stamp = suite.cases.first.map { " timestamp=\"\(timestamp($0.time - $0.seconds))\"" } ?? ""
            xml +=
                "  <testsuite name=\"\(Markup.escaped(suite.name))\"\(counts(suite.cases)) time=\"\(seconds(time))\"\(stamp)>\n"
            for item in suite.cases { xml += testCase(item) }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private static func testCase(_ item: TestCase) -> String {
        let start =
            "    <testcase name=\"\(Markup.escaped(item.name))\" classname=\"\(Markup.escaped(item.suite))\" time=\"\(seconds(item.seconds))\""
        let element: String
        switch item.verdict {
        case .passed: return start + "/>\n"
        case .failed: element = "failure type=\"failed\""
        case .error(let kind): element = "error type=\"\(kind)\""
        case .skipped: element = "skipped"
        }
        let name = element.prefix { $0 != " " }
        var body: [String] = []
        if let expected = item.expected { body.append("expected: " + TextView.escaped(expected)) }
        if let actual = item.actual { body.append("actual: " + actual.map(TextView.escaped).joined(separator: " | ")) }
        if let detail = item.detail { body.append("detail: " + TextView.escaped(detail)) }
        if !item.deviceLines.isEmpty { body.append("device lines:\n" + item.deviceLines.joined(separator: "\n")) }
        return start + ">\n      <\(element) message=\"\(Markup.escaped(item.message))\">"
            + Markup.entities(body.joined(separator: "\n")) + "</\(name)>\n    </testcase>\n"
    }

    private static func counts(_ cases: [TestCase]) -> String {
        let failures = cases.filter { $0.verdict == .failed }.count
        let errors = cases.filter { if case .error = $0.verdict { true } else { false } }.count
        let skipped = cases.filter { $0.verdict == .skipped }.count
        return " tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
    }

    /// Seconds with three decimals, `0.012`.
    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `2026-12-01T12:15:01` (UTC, whole seconds: the schema's `xs:dateTime` without
    /// a zone, as Jenkins writes it).
    private static func timestamp(_ date: Date) -> String {
        String(ISO8601Timestamp.string(date).prefix(19))
    }
}
