import Foundation
import Testing

/// The transcript log format (`--log FILE.txt`, `--log-format transcript`, `--format
/// transcript`) and `--timestamp-format`, through the CLI against the simulator.
@Suite struct TranscriptEndToEndTests {
    /// A device that sends a blank line, a control byte and a line ended by CR alone.
    static let profile = """
        {"name": "blank", "dialect": "line", "lineEnd": "\\r\\n", "commands": [{"match": "X", "reply": "x\\u0007y"}],
         "notifications": [{"every": 100, "send": ["tick", "", "tock"]}]}
        """

    /// Each transcript line: `HH:mm:ss.SSS`, the direction, the escaped text.
    static let line = #"^\d{2}:\d{2}:\d{2}\.\d{3} [<>*] .*$"#

    @Test func aTxtLogIsATranscriptWithDirectionsLineEndsAndBlankLines() throws {
        let folder = try TemporaryFolder()
        let profile = folder.path("blank.json")
        try Self.profile.write(toFile: profile, atomically: true, encoding: .utf8)
        let log = folder.path("session.txt")
        let result = try Subprocess.run(
            "tether", ["monitor", "--sim", "--profile", profile, "--count", "3", "--log", log, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let query = try Subprocess.run("tether", ["query", "--sim", "--profile", profile, "X", "--log", log])
        #expect(query.status == 0, "\(query.stderr)")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let pattern = try Regex(Self.line)
        for line in lines { #expect(line.wholeMatch(of: pattern) != nil, "\(line)") }
        let shown = lines.map { $0.dropFirst(13) }
        #expect(shown.first?.hasPrefix("* connected to sim:") == true, "\(text)")
        #expect(
            shown.joined(separator: "\n").contains("< tick\\r\\n\n< \\r\\n\n< tock\\r\\n"), "blank line kept: \(text)")
        #expect(shown.contains("> X\\n"), "the command with the dialect's line end: \(text)")
        #expect(shown.contains("< x\\x07y\\r\\n"), "a control byte escaped, never raw: \(text)")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func logFormatOverridesTheExtension() throws {
        let folder = try TemporaryFolder()
        let transcript = folder.path("session.jsonl")
        let json = folder.path("session.log")
        let result = try Subprocess.run(
            "tether", ["query", "--sim", "*IDN?", "--log", transcript, "--log-format", "transcript"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: transcript, encoding: .utf8).contains(" > *IDN?\\n\n"))
        let other = try Subprocess.run("tether", ["query", "--sim", "*IDN?", "--log", json, "--log-format", "json"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try JSONLines.types(String(contentsOfFile: json, encoding: .utf8)).contains("sent"))
        let bad = try Subprocess.run("tether", ["query", "--sim", "*IDN?", "--log", json, "--log-format", "tap"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("Error: The value 'tap' is invalid for '--log-format <format>'."), "\(bad.stderr)")
    }

    /// tio's timestamp formats, for text output and transcripts.
    @Test(arguments: [
        ("24hour", #"^\d{2}:\d{2}:\d{2}\.\d{3} \*IDN\? → "#),
        ("24hour-start", #"^00:00:00\.\d{3} \*IDN\? → "#),
        ("24hour-delta", #"^00:00:0\d\.\d{3} \*IDN\? → "#),
        ("iso8601", #"^20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \*IDN\? → "#),
    ])
    func timestampFormats(format: String, pattern: String) throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--timestamp-format", format, "*IDN?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.prefixMatch(of: try Regex(pattern)) != nil, "\(result.stdout)")
    }

    @Test func aTimestampFormatWithOnlyJSONIsRefused() throws {
        let result = try Subprocess.run(
            "tether", ["query", "--sim", "--format", "json", "--timestamp-format", "iso8601", "*IDN?"])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("'--timestamp-format' applies to text output and transcripts"), "\(result.stderr)")
    }

    /// Raw `connect`'s log is the byte stream: what was typed as sent (typed keys and
    /// Enter joined into one line in a transcript), what came back (the console's echo
    /// included) as received, blank lines and the prompt without a line end kept.
    @Test(arguments: ["session.txt", "session.jsonl"])
    func rawConnectLogsWhatWasTypedAsSentAndTheBytesReceived(name: String) throws {
        let folder = try TemporaryFolder()
        let log = folder.path(name)
        let terminal = try TmuxTerminal(
            ["tether", "connect", "--sim", "--profile", "prompt-console", "--mode", "raw", "--log", log],
            environment: ["XDG_STATE_HOME": folder.path("state")])
        #expect(terminal.waitForScreen(containing: "raw mode"))
        terminal.type("version")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "GNU ld"), "\(terminal.screen)")
        #expect(terminal.waitForScreen { $0.split(separator: "\n").last == "=>" }, "\(terminal.screen)")
        #expect(terminal.quitsCleanly())
        let text = try String(contentsOfFile: log, encoding: .utf8)
        if name.hasSuffix(".txt") {
            let shown = text.split(separator: "\n").map { String($0.dropFirst(13)) }
            let start = try #require(shown.firstIndex(of: "> version\\r"), "\(text)")
            #expect(
                Array(shown[(start + 1)...]) == [
                    "< version\\r\\n", "< TBoot 2024.04-sim (tether simulator)\\r\\n", "< \\r\\n",
                    "< gcc (tether) 12.2.0\\r\\n", "< GNU ld (tether) 2.40\\r\\n", "< => ",
                ], "\(text)")
        } else {
            let records = try JSONLines.parse(text)
            #expect(!records.contains { $0["type"] as? String == "notification" }, "\(text)")
            let sent = records.filter { $0["type"] as? String == "sent" }.compactMap { $0["command"] as? String }
            #expect(sent.joined() == "version\r", "\(text)")
            let received = records.filter { $0["type"] as? String == "received" }.compactMap { $0["bytes"] as? String }
            #expect(
                received.joined().hasSuffix(
                    "version\r\nTBoot 2024.04-sim (tether simulator)\r\n\r\n"
                        + "gcc (tether) 12.2.0\r\nGNU ld (tether) 2.40\r\n=> "), "\(received)")
        }
    }

    /// A run's transcript is made from the byte stream too: the blank line the device
    /// sends is in it, though it is framing and no script sees it.
    @Test func runTranscriptKeepsBlankLines() throws {
        let folder = try TemporaryFolder()
        let profile = folder.path("blank.json")
        try Self.profile.write(toFile: profile, atomically: true, encoding: .utf8)
        let result = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--sim", "--profile", profile, "--format", "transcript"],
            stdin: #"check(device.expect("^tock$", 5000) == "tock", "tock")"#, timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let shown = result.stdout.split(separator: "\n").map { String($0.dropFirst(13)) }
        #expect(shown.joined(separator: "\n").contains("< tick\\r\\n\n< \\r\\n\n< tock\\r\\n"), "\(result.stdout)")
    }

    /// A run's transcript has its checks and summary as notes.
    @Test func runTranscriptHasTheChecks() throws {
        let result = try Subprocess.run(
            "tether", ["run", "-", "--sim", "--format", "transcript"], stdin: "SETP? == 30.0\n")
        #expect(result.status == 1, "\(result.stderr)")
        let shown = result.stdout.split(separator: "\n").map { String($0.dropFirst(13)) }
        #expect(shown.contains("> SETP?\\n"), "\(result.stdout)")
        #expect(shown.contains("< 22.0\\r\\n"), "\(result.stdout)")
        #expect(shown.contains("* FAIL stdin:1 SETP? == 30.0 (expected == 30.0, got 22.0)"), "\(result.stdout)")
        #expect(shown.last?.hasPrefix("* summary: 0 passed, 1 failed, 0 timed out, 0 not run (") == true)
    }
}
