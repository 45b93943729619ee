import FoundationEssentials
import TetherPresenter

/// A session report as one self-contained HTML page (`tether report LOG.jsonl`): inline
/// CSS, SVG plots (`SVGPlot`) and a few lines of script, nothing fetched, so it works
/// offline and can be attached to a bug report.
///
/// Per device: a plot of each reading over time, the round trips over time and as a
/// histogram, a timeline of exchanges, error replies, timeouts, failures, late replies,
/// disconnects, reconnects and warnings, and the counts; then the run's checks with
/// their outcome. The script marks the page rendered (`data-rendered` on `body`, the
/// number of plots) once every plot has its marks, and reports a plot without any on
/// the console as an error.
public struct HTMLReportView: ReportView {
    private let output: any OutputSink

    /// Creates the view writing the page to `output`.
    public init(output: any OutputSink = FileSink.standardOutput) {
        self.output = output
    }

    public func render(report: SessionReport, source: String) {
        let start = report.start ?? Date()
        let end = report.end ?? start
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>tether report: \(Markup.escaped(source))</title>
            <style>\(Self.style)</style></head>
            <body data-rendered="">
            <h1>tether report: \(Markup.escaped(source))</h1>
            <p class="span">\(report.records) records, \(Markup.escaped(ISO8601Timestamp.string(start))) to \
            \(Markup.escaped(ISO8601Timestamp.string(end))) (\(SampleStatistics.show((end.timeIntervalSince(start) * 10).rounded() / 10)) s)\
            \(report.skipped > 0 ? "; \(report.skipped) lines skipped (not a record)" : "")</p>

            """
        for device in report.devices {
            page += "<section class=\"device\"><h2>\(Markup.escaped(device.name))</h2>\n"
            for reading in device.readings where !reading.samples.isEmpty {
                page += Self.series(
                    reading.samples, from: start, to: end, label: reading.name, joined: true,
                    caption: "\(reading.name) over time")
            }
            if !device.roundTrips.isEmpty {
                page += Self.series(
                    device.roundTrips, from: start, to: end, label: "round trip (ms)", joined: false,
                    caption: "round trips over time")
                page += Self.figure(
                    SVGPlot.histogram(device.roundTrips.map(\.value), label: "round trip (ms)"),
                    caption: "round trips, histogram")
            }
            if !device.events.isEmpty {
                let drawn = Downsampling.timeline(device.events, from: start, to: end)
                page += Self.figure(
                    SVGPlot.timeline(drawn, from: start, to: end),
                    caption: "timeline"
                        + (drawn.count < device.events.count
                            ? " (\(drawn.count) of \(device.events.count) events drawn: the first of each kind in each "
                                + "interval, its title counting the rest)" : ""))
            }
            let counts = SessionReport.Event.Kind.allCases.map { "<td>\(device.count($0))</td>" }.joined()
            page +=
                "<table class=\"counts\"><tr>"
                + SessionReport.Event.Kind.allCases.map { "<th>\($0.rawValue)</th>" }.joined()
                + "<th>notifications</th></tr><tr>\(counts)<td>\(device.notifications)</td></tr></table></section>\n"
        }
        if !report.checks.isEmpty {
            page +=
                "<section class=\"checks\"><h2>checks</h2><table class=\"checks\">"
                + "<tr><th>outcome</th><th>where</th><th>device</th><th>check</th><th>detail</th></tr>\n"
            for check in report.checks {
                page +=
                    "<tr class=\"\(Markup.escaped(check.status))\"><td>\(TextReportView.word(check.status))</td>"
                    + "<td>\(Markup.escaped(check.place))</td><td>\(Markup.escaped(check.device ?? ""))</td>"
                    + "<td>\(Markup.escaped(check.description))</td><td>\(Markup.escaped(check.detail ?? ""))</td></tr>\n"
            }
            page += "</table></section>\n"
        }
        if let outcome = report.outcome {
            page +=
                "<p class=\"outcome \(Markup.escaped(outcome.name))\">outcome: \(Markup.escaped(outcome.name)) "
                + "(\(outcome.durationMilliseconds) ms)</p>\n"
        }
        page += "<script>\(Self.script)</script>\n</body></html>\n"
        output.write(page)
    }

    /// A plot of `samples`, downsampled for the page (``Downsampling``), its caption
    /// saying so when it is.
    private static func series(
        _ samples: [SessionReport.Sample], from start: Date, to end: Date, label: String, joined: Bool, caption: String
    ) -> String {
        let drawn = Downsampling.series(samples, from: start, to: end)
        return figure(
            SVGPlot.series(drawn, from: start, to: end, label: label, joined: joined),
            caption: caption
                + (drawn.count < samples.count
                    ? " (\(drawn.count) of \(samples.count) samples drawn: each interval's first, least, greatest "
                        + "and last)" : ""))
    }

    private static func figure(_ svg: String, caption: String) -> String {
        "<figure>\(svg)<figcaption>\(Markup.escaped(caption))</figcaption></figure>\n"
    }

    private static let style = """
        body{font:14px system-ui,sans-serif;margin:2em;color:#222;max-width:60em}
        h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
        figure{margin:0.6em 0}figcaption{font-size:0.85em;color:#555}
        svg.plot{width:100%;max-width:720px;height:auto;background:#fafafa;border:1px solid #ddd}
        .axis{stroke:#888}.grid{stroke:#eee}.line{fill:none;stroke:#2a6fdb;stroke-width:1.5}
        circle{fill:#2a6fdb}circle.bad{fill:#d33}rect{fill:#2a6fdb}
        text{font-size:10px;fill:#444}.end,.row{text-anchor:end}.label{text-anchor:middle}
        table{border-collapse:collapse;margin:0.6em 0}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left}
        tr.failed td:first-child,tr.timeout td:first-child{color:#d33}tr.passed td:first-child{color:#282}
        """

    private static let script = """
        (function(){var plots=document.querySelectorAll("svg.plot");var empty=0;
        plots.forEach(function(p){if(!p.querySelector("[data-mark]")){empty++;}});
        if(empty>0){console.error(empty+" plots have no marks");}
        document.body.setAttribute("data-rendered",String(plots.length-empty));})();
        """
}
