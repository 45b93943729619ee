import Foundation
import Testing
import TetherSimulator

/// `tether query --dialect …` through the built CLI against exact device transcripts
/// (``ScriptedDevice`` behind a real pty), for the reply-matching device cases.
@Suite struct DialectEndToEndTests {
    typealias Chunk = ScriptedDevice.Chunk

    /// Runs `tether query <pty> arguments…` against a device answering by `rules`.
    private func query(_ rules: [ScriptedDevice.Rule], _ arguments: [String]) throws -> Subprocess.Result {
        let simulator = try Simulator(device: ScriptedDevice(rules: rules))
        defer { simulator.stop() }
        return try Subprocess.run("tether", ["query", simulator.devicePath] + arguments)
    }

    private func objects(_ result: Subprocess.Result, type: String) throws -> [[String: Any]] {
        try JSONLines.parse(result.stdout).filter { $0["type"] as? String == type }
    }

    static let splitCSQ: [Chunk] = [
        Chunk("\r\n+CSQ: 2"), Chunk("3,99\r\n", after: .milliseconds(150)),
        Chunk("\r\nOK\r\n", after: .milliseconds(150)),
    ]

    /// A reply split across reads, and one byte per write (15 ms apart), text and JSON.
    @Test(arguments: [
        splitCSQ,
        splitCSQ.flatMap(\.bytes).map { Chunk([$0], after: .milliseconds(15)) },
    ])
    func splitReply(chunks: [Chunk]) throws {
        let rules = [ScriptedDevice.Rule(on: "AT+CSQ\r", send: chunks)]
        let text = try query(rules, ["--dialect", "at", "--timeout", "2000", "AT+CSQ"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("AT+CSQ → +CSQ: 23,99\n"), "\(text.stdout)")
        #expect(text.stdout.contains("OK  ("))
        let json = try query(rules, ["--dialect", "at", "--timeout", "2000", "--format", "json", "AT+CSQ"])
        #expect(json.status == 0, "\(json.stderr)")
        let reply = try #require(try objects(json, type: "reply").first)
        #expect(reply["lines"] as? [String] == ["+CSQ: 23,99"])
        #expect(reply["final"] as? String == "OK")
        #expect(try objects(json, type: "notification").isEmpty)
    }

    /// Echo on, split echo and echo off give identical output.
    @Test func echoIsDroppedAlike() throws {
        let variants: [[Chunk]] = [
            [Chunk("AT+CGMI\r\r\nACME\r\n\r\nOK\r\n")],
            [Chunk("AT+C"), Chunk("GMI\r\r\nACME\r\n\r\nOK\r\n", after: .milliseconds(30))],
            [Chunk("\r\nACME\r\n\r\nOK\r\n")],
        ]
        for chunks in variants {
            let result = try query(
                [ScriptedDevice.Rule(on: "AT+CGMI\r", send: chunks)],
                ["--dialect", "at", "--format", "json", "AT+CGMI"])
            #expect(result.status == 0, "\(result.stderr)")
            let replies = try objects(result, type: "reply")
            #expect(replies.count == 1)
            #expect(replies.first?["lines"] as? [String] == ["ACME"])
            #expect(replies.first?["final"] as? String == "OK")
            #expect(try objects(result, type: "notification").isEmpty)
        }
    }

    /// Prompt variant: `"> ver\r\nfw 1.2.3\r\n> "` replies exactly `fw 1.2.3`.
    @Test func promptConsole() throws {
        let rules = [ScriptedDevice.Rule(on: "ver\r", send: [Chunk("> ver\r\nfw 1.2.3\r\n> ")])]
        let text = try query(rules, ["--dialect", "prompt", "--prompt", "> ", "ver"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("ver → fw 1.2.3  ("), "\(text.stdout)")
        let json = try query(rules, ["--dialect", "prompt", "--prompt", "> ", "--format", "json", "ver"])
        #expect(try objects(json, type: "reply").first?["lines"] as? [String] == ["fw 1.2.3"])
    }

    /// URCs before and inside replies are notifications, once each,
    /// in order; a batch with both commands.
    @Test func unsolicitedCodesInJSON() throws {
        let rules = [
            ScriptedDevice.Rule(
                on: "AT+CSQ\r",
                send: [
                    Chunk("\r\n+CMTI: \"SM\",3\r\n"), Chunk("\r\n+CSQ: 23,99\r\n", after: .milliseconds(20)),
                    Chunk("\r\nRING\r\n", after: .milliseconds(20)), Chunk("\r\nOK\r\n", after: .milliseconds(20)),
                ]),
            ScriptedDevice.Rule(
                on: "AT+CPMS?\r",
                send: [Chunk("\r\n+CPMS: \"SM\",3,30,\"SM\",3,30,\"SM\",3,30\r\n\r\n+CREG: 1\r\n\r\nOK\r\n")]),
        ]
        let result = try query(rules, ["--dialect", "at", "--format", "json", "AT+CSQ", "AT+CPMS?"])
        #expect(result.status == 0, "\(result.stderr)")
        let replies = try objects(result, type: "reply")
        #expect(replies.map { $0["command"] as? String } == ["AT+CSQ", "AT+CPMS?"])
        #expect(
            replies.map { $0["lines"] as? [String] } == [
                ["+CSQ: 23,99"], ["+CPMS: \"SM\",3,30,\"SM\",3,30,\"SM\",3,30"],
            ])
        #expect(replies.map { $0["final"] as? String } == ["OK", "OK"])
        let notifications = try objects(result, type: "notification").map { $0["line"] as? String }
        #expect(notifications == ["+CMTI: \"SM\",3", "RING", "+CREG: 1"])
    }

    /// AT variant: `AT+COPS?` times out at 600 ms; `AT+CSQ` goes out then (the
    /// line was quiet); COPS's late reply arrives at 800 ms while `AT+CSQ` is
    /// outstanding and is reported late; `AT+CSQ` gets `+CSQ: 20,99`, at 900 ms.
    @Test func lateReplyInAT() throws {
        let rules = [
            ScriptedDevice.Rule(
                on: "AT+COPS?\r", send: [Chunk("\r\n+COPS: 0,0,\"NET\",7\r\n\r\nOK\r\n", after: .milliseconds(800))]),
            ScriptedDevice.Rule(
                on: "AT+CSQ\r", send: [Chunk("\r\n+CSQ: 20,99\r\n\r\nOK\r\n", after: .milliseconds(300))]),
        ]
        let arguments = ["--dialect", "at", "--timeout", "600", "AT+COPS?", "AT+CSQ"]
        let text = try query(rules, arguments)
        #expect(text.status == 75, "\(text.stdout) \(text.stderr)")
        #expect(text.stdout.contains("AT+COPS? ✗ no reply within 600 ms"))
        #expect(text.stdout.contains("late reply to AT+COPS?: +COPS: 0,0,\"NET\",7 | OK"), "\(text.stdout)")
        #expect(text.stdout.contains("AT+CSQ → +CSQ: 20,99\n"), "\(text.stdout)")
        let json = try query(rules, arguments + ["--format", "json"])
        let replies = try objects(json, type: "reply")
        #expect(replies.map { $0["command"] as? String } == ["AT+CSQ"])
        #expect(replies.first?["lines"] as? [String] == ["+CSQ: 20,99"])
        let late = try objects(json, type: "late_reply")
        #expect(late.map { $0["command"] as? String } == ["AT+COPS?"])
        #expect(late.first?["lines"] as? [String] == ["+COPS: 0,0,\"NET\",7", "OK"])
    }

    /// A numeric `+CME ERROR` is an error reply (exit 1) shown with its 3GPP meaning.
    @Test func cmeErrorShowsItsMeaning() throws {
        let rules = [ScriptedDevice.Rule(on: "AT+CPIN?\r", send: [Chunk("\r\n+CME ERROR: 10\r\n")])]
        let text = try query(rules, ["--dialect", "at", "AT+CPIN?"])
        #expect(text.status == 1)
        #expect(text.stdout.contains("AT+CPIN? ✗ +CME ERROR: 10 (SIM not inserted)"), "\(text.stdout)")
        let json = try query(rules, ["--dialect", "at", "--format", "json", "AT+CPIN?"])
        let reply = try #require(try objects(json, type: "reply").first)
        #expect(reply["error"] as? Bool == true)
        #expect(reply["error_description"] as? String == "SIM not inserted")
    }

    /// SCPI: `--check-errors` turns the error queue into a failed command (exit 1);
    /// `*IDN?` is parsed into its four fields.
    @Test func scpiErrorQueueAndIdentity() throws {
        let rules = [
            ScriptedDevice.Rule(on: "VOLT 99\nSYST:ERR?\n", send: [Chunk("-222,\"Data out of range\"\n")]),
            ScriptedDevice.Rule(on: "SYST:ERR?\n", send: [Chunk("+0,\"No error\"\n")]),
            ScriptedDevice.Rule(on: "*IDN?\n", send: [Chunk("ACME,PSU-1,0001,1.0\n")]),
        ]
        let result = try query(rules, ["--dialect", "scpi", "--check-errors", "--format", "json", "*IDN?", "VOLT 99"])
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        let replies = try objects(result, type: "reply")
        #expect(replies.map { $0["command"] as? String } == ["*IDN?", "VOLT 99"])
        let identity = try #require(replies.first?["identity"] as? [String: Any])
        #expect(identity["manufacturer"] as? String == "ACME")
        #expect(identity["model"] as? String == "PSU-1")
        #expect(identity["serial"] as? String == "0001")
        #expect(identity["firmware"] as? String == "1.0")
        #expect(replies.last?["error"] as? Bool == true)
        #expect(replies.last?["lines"] as? [String] == ["-222,\"Data out of range\""])
    }

    /// A bad dialect option value exits 64 naming the option.
    @Test func badDialectValueIsAUsageError() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--dialect", "modem", "AT"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("'--dialect <name>'"))
        let misplaced = try Subprocess.run("tether", ["query", "--sim", "--dialect", "at", "--check-errors", "AT"])
        #expect(misplaced.status == 64)
        #expect(misplaced.stderr.contains("'--check-errors' applies only to '--dialect scpi'"))
    }
}
