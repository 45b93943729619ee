import FoundationEssentials
import TetherPresenter

/// A session report as text tables (`tether report --format text`): per device its
/// readings (count, min, mean, max), its round trips (p50, p90, max) and its events by
/// kind, then the run's checks and outcome. The same summary the HTML report plots.
///
/// ```
/// session.jsonl: 214 records, 2026-12-01T12:00:00.000Z to 2026-12-01T12:00:09.512Z (9.5 s)
///
/// sim:env (/dev/pts/1)
///   reading  count  min    mean    max
///   hum      19     40.1   41.032  42
///   temp     19     21.5   22.011  22.87
///   round trips: 12, p50 1 ms, p90 3 ms, max 6 ms
///   events: 12 exchanges, 1 error, 1 timeout, 0 failed, 0 late replies, 0 disconnected, …
///
/// checks
///   PASS     chamber.txt:6  *IDN? =~ ^TETHER
/// outcome: passed (31 ms)
/// ```
public struct TextReportView: ReportView {
    private let output: any OutputSink

    /// Creates the view writing to `output`.
    public init(output: any OutputSink = FileSink.standardOutput) {
        self.output = output
    }

    public func render(report: SessionReport, source: String) {
        var text = "\(TextView.plain(source)): \(report.records) records"
        if let start = report.start, let end = report.end {
            let seconds = SampleStatistics.show((end.timeIntervalSince(start) * 10).rounded() / 10)
            text += ", \(ISO8601Timestamp.string(start)) to \(ISO8601Timestamp.string(end)) (\(seconds) s)"
        }
        if report.skipped > 0 { text += "; \(report.skipped) lines skipped (not a record)" }
        text += "\n"
        for device in report.devices {
            text += "\n" + TextView.plain(device.name) + "\n"
            let rows = device.readings.compactMap { reading in
                SampleStatistics(reading.samples).map { stats in
                    [
                        reading.name, String(stats.count), SampleStatistics.show(stats.minimum),
                        SampleStatistics.show(stats.mean), SampleStatistics.show(stats.maximum),
                    ]
                }
            }
            if !rows.isEmpty { text += Self.table([["reading", "count", "min", "mean", "max"]] + rows) }
            if let trips = SampleStatistics(device.roundTrips) {
                text +=
                    "  round trips: \(trips.count), p50 \(SampleStatistics.show(trips.percentile(0.5))) ms, "
                    + "p90 \(SampleStatistics.show(trips.percentile(0.9))) ms, max \(SampleStatistics.show(trips.maximum)) ms\n"
            }
            let counts = SessionReport.Event.Kind.allCases.map { "\(device.count($0)) \(Self.plural($0))" }
            text += "  events: " + counts.joined(separator: ", ") + "; \(device.notifications) notifications\n"
        }
        if !report.checks.isEmpty {
            text += "\nchecks\n"
            text += Self.table(
                report.checks.map { check in
                    [
                        Self.word(check.status), check.place,
                        (check.device.map { "[\($0)] " } ?? "") + check.description,
                        check.detail ?? "",
                    ].map(TextView.plain)
                })
        }
        if let outcome = report.outcome {
            text += "outcome: \(outcome.name) (\(outcome.durationMilliseconds) ms)\n"
        }
        output.write(text)
    }

    /// Rows as columns two spaces apart, indented by two; the last column unpadded.
    static func table(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            var line = "  "
            for (column, cell) in row.enumerated() {
                line += cell
                if column < row.count - 1 { line += String(repeating: " ", count: widths[column] - cell.count + 2) }
            }
            return String(line.reversed().drop { $0 == " " }.reversed()) + "\n"
        }.joined()
    }

    private static func plural(_ kind: SessionReport.Event.Kind) -> String {
        switch kind {
        case .exchange: "exchanges"
        case .error: "error replies"
        case .timeout: "timeouts"
        case .failed: "failed"
        case .lateReply: "late replies"
        case .disconnected: "disconnects"
        case .reconnected: "reconnects"
        case .warning: "warnings"
        }
    }

    static func word(_ status: String) -> String {
        switch status {
        case "passed": "PASS"
        case "failed": "FAIL"
        case "timeout": "TIMEOUT"
        case "not_run": "NOT RUN"
        default: status.uppercased()
        }
    }
}
