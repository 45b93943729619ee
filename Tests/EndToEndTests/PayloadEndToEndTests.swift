import Foundation
import Testing

/// Binary payloads, `--hex` line ends and blank lines through the built CLI,
/// libserialport and the pty simulator (profiles with exact `bytes`).
@Suite struct PayloadEndToEndTests {
    /// 2000 bytes holding every byte value, 0x0A and 0x0D among them.
    static let block = (0..<2000).map { UInt8($0 % 256) }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined(separator: " ") }

    static func hex(_ text: String) -> String { hex(Array(text.utf8)) }

    /// Writes `profile` to a file in `folder` and returns its path.
    static func write(_ profile: String, named name: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.path(name + ".json")
        try profile.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func scpiProfile(in folder: TemporaryFolder) throws -> String {
        let definite = hex(Array("#42000".utf8) + block + [0x0A])
        let indefinite = hex(Array("#0ab\ncd\n\r\nef\n".utf8))
        return try write(
            """
            {"name": "blocks", "dialect": "scpi", "lineEnd": "\\n", "commands": [
              {"match": "CURV?", "bytes": "\(definite)", "reply": []},
              {"match": "WAV?", "bytes": "\(indefinite)", "reply": []},
              {"match": "*IDN?", "reply": "TETHER,BLOCKS,SIM0001,1.0"}]}
            """, named: "blocks", in: folder)
    }

    static func atProfile(in folder: TemporaryFolder) throws -> String {
        try write(
            """
            {"name": "esp", "dialect": "at", "input": "cr", "lineStart": "\\r\\n", "lineEnd": "\\r\\n",
             "finalReply": "OK", "commands": [
              {"match": "AT+CIPSTATUS", "bytes": "\(hex("\r\n+IPD,1,11:OK\r\nHELLO\r\n"))", "reply": "STATUS:3"},
              {"match": "AT+QIRD=0,5", "bytes": "\(hex("\r\n+QIRD: 5\r\nab\r\nc"))", "reply": []},
              {"match": "AT", "reply": []}]}
            """, named: "esp", in: folder)
    }

    private func records(_ result: Subprocess.Result, _ type: String) throws -> [[String: Any]] {
        try JSONLines.parse(result.stdout).filter { $0["type"] as? String == type }
    }

    @Test func definiteBlockThenANormalQuery() throws {
        let folder = try TemporaryFolder()
        let profile = try Self.scpiProfile(in: folder)
        let result = try Subprocess.run(
            "tether", ["query", "--sim", "--profile", profile, "--format", "json", "CURV?", "*IDN?"])
        #expect(result.status == 0, "\(result.stderr)")
        let replies = try records(result, "reply")
        #expect(replies.map { $0["command"] as? String } == ["CURV?", "*IDN?"])
        #expect(replies.first?["lines"] as? [String] == ["#42000"])
        #expect(replies.first?["lines_payload_length"] as? [Int] == [2000])
        let payload = try #require((replies.first?["lines_payload_hex"] as? [String])?.first)
        #expect(payload == Self.hex(Self.block).replacingOccurrences(of: " ", with: ""))
        #expect(replies.last?["lines"] as? [String] == ["TETHER,BLOCKS,SIM0001,1.0"])
        #expect(replies.allSatisfy { $0["in_doubt"] == nil && $0["error"] as? Bool == false })
        #expect(try records(result, "notification").isEmpty)
        let text = try Subprocess.run("tether", ["query", "--sim", "--profile", profile, "CURV?"])
        #expect(
            text.stdout.hasPrefix("CURV? → #42000 <2000 bytes: 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f …>"),
            "\(text.stdout)")
    }

    @Test func indefiniteBlockEndsAtItsLastLF() throws {
        let folder = try TemporaryFolder()
        let profile = try Self.scpiProfile(in: folder)
        let result = try Subprocess.run(
            "tether", ["query", "--sim", "--profile", profile, "--format", "json", "WAV?", "*IDN?"])
        #expect(result.status == 0, "\(result.stderr)")
        let replies = try records(result, "reply")
        #expect(replies.first?["lines"] as? [String] == ["#0"])
        #expect(replies.first?["lines_payload_hex"] as? [String] == ["61620a63640a0d0a6566"])
        #expect(replies.last?["lines"] as? [String] == ["TETHER,BLOCKS,SIM0001,1.0"])
    }

    @Test func ipdPayloadHoldingOKEndsNoReply() throws {
        let folder = try TemporaryFolder()
        let profile = try Self.atProfile(in: folder)
        let result = try Subprocess.run(
            "tether", ["query", "--sim", "--profile", profile, "--format", "json", "AT+CIPSTATUS", "AT"])
        #expect(result.status == 0, "\(result.stderr)")
        let replies = try records(result, "reply")
        #expect(replies.map { $0["lines"] as? [String] } == [["STATUS:3"], []])
        #expect(replies.map { $0["final"] as? String } == ["OK", "OK"])
        let notifications = try records(result, "notification")
        #expect(notifications.map { $0["line"] as? String } == ["+IPD,1,11:"])
        #expect(notifications.first?["line_payload_hex"] as? String == "4f4b0d0a48454c4c4f0d0a")
    }

    @Test func qirdPayloadIsPartOfItsReply() throws {
        let folder = try TemporaryFolder()
        let profile = try Self.atProfile(in: folder)
        let result = try Subprocess.run("tether", ["query", "--sim", "--profile", profile, "AT+QIRD=0,5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("AT+QIRD=0,5 → +QIRD: 5\n"), "\(result.stdout)")
        #expect(result.stdout.contains("<5 bytes: 61 62 0d 0a 63>\n"), "\(result.stdout)")
    }

    @Test func hexShowsTheLineEnd() throws {
        let folder = try TemporaryFolder()
        let profile = try Self.atProfile(in: folder)
        let result = try Subprocess.run("tether", ["query", "--sim", "--profile", profile, "--hex", "AT+CIPSTATUS"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("AT+CIPSTATUS → 53 54 41 54 55 53 3a 33 0d 0a\n"), "\(result.stdout)")
        #expect(result.stdout.contains("4f 4b 0d 0a  ("), "\(result.stdout)")
    }

    /// A device's blank line is framing: `monitor` neither shows nor counts it, and
    /// the transcript log, made from the byte stream, keeps it.
    @Test func blankLinesAreNotShownButTheTranscriptKeepsThem() throws {
        let folder = try TemporaryFolder()
        let profile = try Self.write(
            """
            {"name": "blank", "dialect": "line", "commands": [{"match": "X", "reply": "x"}],
             "notifications": [{"every": 100, "send": ["tick", "", "tock"]}]}
            """, named: "blank", in: folder)
        let log = folder.path("log.txt")
        let result = try Subprocess.run(
            "tether", ["monitor", "--sim", "--profile", profile, "--count", "2", "--log", log], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "tick\ntock\n")
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(logged.contains("< tick\\r\\n\n"), "\(logged)")
        #expect(logged.contains("< \\r\\n\n"), "the blank line: \(logged)")
    }
}
