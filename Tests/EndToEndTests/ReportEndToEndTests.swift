import Foundation
import Testing

/// `tether report`: a recorded session as an HTML page with plots, checked in a real
/// browser (Debian's `chromium`, installed by `scripts/install-deps --test`), and as
/// text tables.
@Suite struct ReportEndToEndTests {
    static let chromium = "/usr/bin/chromium"

    /// A log of a monitored session (readings) and a run (round trips, an error reply,
    /// checks that pass and fail).
    private func recordSession(in folder: TemporaryFolder) throws -> String {
        let log = folder.path("session.jsonl")
        let monitor = try Subprocess.run(
            "tether", ["monitor", "--sim", "--count", "3", "--log", log, "--format", "json"])
        #expect(monitor.status == 0, "\(monitor.stderr)")
        let run = try Subprocess.run(
            "tether", ["run", "-", "--sim", "--log", log], stdin: "*IDN? =~ ^TETHER\nSETP? == 30.0\nBOGUS =~ ^ERR\n")
        #expect(run.status == 1, "\(run.stderr)")
        return log
    }

    @Test func textReportTabulatesReadingsRoundTripsEventsAndChecks() throws {
        let folder = try TemporaryFolder()
        let log = try recordSession(in: folder)
        let result = try Subprocess.run("tether", ["report", log, "--format", "text"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout
        #expect(text.hasPrefix("\(log): "), "\(text)")
        #expect(text.contains("  reading  count  min"), "\(text)")
        #expect(text.contains("\n  temp     3 "), "\(text)")
        #expect(text.contains("  round trips: 3, p50 "), "\(text)")
        #expect(text.contains("  events: 2 exchanges, 1 error replies, 0 timeouts,"), "\(text)")
        #expect(text.contains("  FAIL  stdin:2  SETP? == 30.0"), "\(text)")
        #expect(text.contains("expected == 30.0; got 22.0"), "\(text)")
        #expect(text.hasSuffix(" ms)\n") && text.contains("outcome: failed ("), "\(text)")
    }

    /// The report of a short session recorded before reading was made streaming and
    /// plots downsampled (`Fixtures/report-session.jsonl`, its text and page as that
    /// tether wrote them): unchanged byte for byte.
    @Test(arguments: ["txt", "html"]) func aShortSessionsReportIsUnchanged(_ format: String) throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let log = try String(contentsOf: fixtures.appendingPathComponent("report-session.jsonl"), encoding: .utf8)
        let expected = try String(
            contentsOf: fixtures.appendingPathComponent("report-session.\(format)"), encoding: .utf8)
        let folder = try TemporaryFolder()
        let output = folder.path("report.\(format)")
        let result = try Subprocess.run(
            "tether", ["report", "-", "--format", format == "txt" ? "text" : "html", "--output", output], stdin: log)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == expected)
    }

    /// A log of 300 000 records reads in one pass, and its page stays small: each plot
    /// drawn from at most 1 200 samples, saying so in its caption.
    @Test func aLongLogsPageIsDownsampled() throws {
        let folder = try TemporaryFolder()
        var log = ""
        let start = 1_800_000_000.0
        for index in 0..<300_000 {
            let time = ISO8601DateFormatter.string(
                from: Date(timeIntervalSince1970: start + Double(index) / 100), timeZone: .gmt,
                formatOptions: [.withInternetDateTime, .withFractionalSeconds])
            log +=
                index % 2 == 0
                ? #"{"device":"d","readings":{"temp":\#(index % 1000)},"time":"\#(time)","type":"notification","v":1}"#
                : #"{"command":"MEAS?","device":"d","rtt_ms":\#(index % 7),"time":"\#(time)","type":"reply","v":1}"#
            log += "\n"
        }
        let path = folder.path("long.jsonl")
        try log.write(toFile: path, atomically: false, encoding: .utf8)
        let result = try Subprocess.run("tether", ["report", path], timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: folder.path("long.html"), encoding: .utf8)
        #expect(html.contains("300000 records"))
        #expect(html.contains("temp over time (") && html.contains(" of 150000 samples drawn"))
        #expect(html.contains("timeline (") && html.contains("of 150000 events drawn"))
        #expect(html.utf8.count < 5_000_000, "\(html.utf8.count) bytes")
        // The greatest and least reading (998 and 0) are still on the page.
        #expect(html.contains(": 998</title>") && html.contains(": 0</title>"))
    }

    @Test func htmlReportIsOneSelfContainedFile() throws {
        let folder = try TemporaryFolder()
        let log = try recordSession(in: folder)
        let result = try Subprocess.run("tether", ["report", log])
        #expect(result.status == 0, "\(result.stderr)")
        let page = folder.path("session.html")
        #expect(result.stderr == "wrote \(page)\n")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        for plot in ["plot series", "plot scatter", "plot histogram", "plot timeline"] {
            #expect(html.contains("<svg class=\"\(plot)\""), "\(plot)")
        }
        // Nothing is fetched: no link, no source, no address.
        #expect(!html.contains("http://") && !html.contains("https://"))
        #expect(!html.contains("<link") && !html.contains(" src="))
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: chromium),
            "chromium is not installed (scripts/install-deps --test)"))
    func chromiumRendersTheReportWithItsPlotsAndNoConsoleErrors() throws {
        let folder = try TemporaryFolder()
        let log = try recordSession(in: folder)
        let page = folder.path("report.html")
        let made = try Subprocess.run("tether", ["report", log, "--output", page])
        #expect(made.status == 0, "\(made.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let plots = html.components(separatedBy: "<svg class=\"plot ").count - 1
        #expect(plots >= 5, "temp, hum, round trips over time and as a histogram, the timeline")
        let browser = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.path("profile"))"]
        let dom = try Subprocess.run(
            path: Self.chromium, browser + ["--enable-logging=stderr", "--v=0", "--dump-dom", "file://\(page)"],
            timeout: 120)
        #expect(dom.status == 0, "\(dom.stderr)")
        // The page's script counts the plots that have their marks.
        #expect(dom.stdout.contains("data-rendered=\"\(plots)\""), "\(dom.stdout.prefix(400))")
        let console = dom.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(console.isEmpty, "\(console)")
        let shot = folder.path("report.png")
        let screenshot = try Subprocess.run(
            path: Self.chromium,
            browser + ["--hide-scrollbars", "--window-size=1000,2400", "--screenshot=\(shot)", "file://\(page)"],
            timeout: 120)
        #expect(screenshot.status == 0, "\(screenshot.stderr)")
        let png = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        #expect(png.count > 20_000, "plots drawn, not a blank page: \(png.count) bytes")
    }

    @Test func badLogsGiveClearErrors() throws {
        let folder = try TemporaryFolder()
        let missing = try Subprocess.run("tether", ["report", folder.path("none.jsonl")])
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("Error: cannot read the log \(folder.path("none.jsonl")): No such file"))
        let garbage = folder.path("garbage.jsonl")
        try "not json\n{\"no\":\"type\"}\n".write(toFile: garbage, atomically: true, encoding: .utf8)
        let empty = try Subprocess.run("tether", ["report", garbage, "--format", "text"])
        #expect(empty.status == 65, "\(empty.stderr)")
        #expect(empty.stderr.contains("holds no tether records"), "\(empty.stderr)")
        let json = try Subprocess.run("tether", ["report", garbage, "--format", "json"])
        #expect(json.status == 64)
        #expect(json.stderr.hasPrefix("Error: The format 'json' cannot show a session report;"), "\(json.stderr)")
    }
}
