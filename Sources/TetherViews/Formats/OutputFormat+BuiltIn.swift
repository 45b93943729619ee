extension OutputFormat {
    /// Every format, in the order `--help` lists them. A new format is its view and
    /// one entry here.
    package static let all: [OutputFormat] = [text, json, transcript, tap, junit, html]

    /// Text for people (``TextView``; the dashboard is `monitor --live`'s own).
    package static let text = OutputFormat(
        name: "text", summary: "for people", isForPrograms: false,
        eventLog: {
            TextView(
                output: $0.output, timestamps: $0.timestamper, showsHex: $0.showsHex, isQuiet: $0.isQuiet,
                colour: $0.colour)
        },
        run: { TextView(output: $0.output, timestamps: $0.timestamper, isQuiet: $0.isQuiet) },
        portList: { TextView(output: $0.output) },
        modemLines: { TextView(output: $0.output, isQuiet: $0.isQuiet) },
        transfer: { TransferProgressBar(isTerminal: FileSink.standardError.isTerminal, isQuiet: $0.isQuiet) },
        report: { TextReportView(output: $0.output) })

    /// JSON Lines for programs (``JSONView``, docs/JSON.md).
    package static let json = OutputFormat(
        name: "json", summary: "JSON Lines", isForPrograms: true,
        eventLog: { JSONView(output: $0.output) }, run: { JSONView(output: $0.output) },
        portList: { JSONView(output: $0.output) }, modemLines: { JSONView(output: $0.output) },
        transfer: { JSONView(output: $0.output) }, liveState: { JSONStateView(output: $0.output) })
}

extension OutputFormat {
    /// A transcript for people to read afterwards (``TranscriptView``): every line with
    /// its time, direction and line end; the `--log` format of a `.txt` or `.log` file.
    package static let transcript = OutputFormat(
        name: "transcript", summary: "each line with its time, direction and line end", isForPrograms: false,
        eventLog: { TranscriptView(output: $0.output, timestamps: Timestamper($0.timestampStyle)) },
        run: { TranscriptView(output: $0.output, timestamps: Timestamper($0.timestampStyle)) },
        modemLines: { TranscriptView(output: $0.output, timestamps: Timestamper($0.timestampStyle)) })

    /// TAP version 13 for test harnesses (``TAPView``): a run's checks only.
    package static let tap = OutputFormat(
        name: "tap", summary: "TAP for test harnesses", isForPrograms: true, run: { TAPView(output: $0.output) })

    /// A JUnit XML report for CI (``JUnitView``), written when the run ends: a run's
    /// checks only (`tether run --junit FILE` writes it beside another format).
    package static let junit = OutputFormat(
        name: "junit", summary: "a JUnit XML report", isForPrograms: true, run: { JUnitView(output: $0.output) })
}

extension OutputFormat {
    /// One self-contained HTML page with plots (``HTMLReportView``): a session report.
    package static let html = OutputFormat(
        name: "html", summary: "a self-contained HTML page with plots", isForPrograms: false,
        report: { HTMLReportView(output: $0.output) })
}
