import Foundation
import Testing

/// `tether --sim` takes the simulator's fault options (they were only reachable through
/// a separate `tether-sim`).
@Suite struct SimFaultOptionsEndToEndTests {
    @Test func latencyDelaysTheReply() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--latency", "300", "--format", "json", "*IDN?"])
        #expect(result.status == 0, "\(result.stderr)")
        let reply = try JSONLines.parse(result.stdout).first { $0["type"] as? String == "reply" }
        #expect((reply?["rtt_ms"] as? Int ?? 0) >= 300)
    }

    @Test func dropLosesTheReply() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--drop", "1", "--timeout", "300", "*IDN?"])
        #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
    }

    /// Every command times out (`--latency 300 --timeout 100`); the echo `AT+CSQ` arrived
    /// while `AT` was in flight and was taken as AT's reply ("incomplete reply to AT:
    /// AT+CSQ", then "late reply to AT: AT+CSQ | OK"). Whether a reply is on time or
    /// late depends on the machine's load, so only the pairing is asserted.
    @Test func lateEchoIsNotTheNextCommandsReply() throws {
        let arguments = ["query", "--sim", "--profile", "at-modem", "--latency", "300", "--timeout", "100"]
        let commands = ["AT+CSQ", "AT", "AT+CREG?"]
        let text = try Subprocess.run("tether", arguments + commands)
        #expect(!text.stdout.contains("incomplete reply"), "\(text.stdout)")
        #expect(!text.stdout.contains("reply to AT: AT+CSQ"), "\(text.stdout)")
        let json = try Subprocess.run("tether", arguments + ["--format", "json"] + commands)
        let records = try JSONLines.parse(json.stdout)
        var answers: [String: [String]] = [:]
        for record in records {
            guard ["reply", "late_reply"].contains(record["type"] as? String),
                let command = record["command"] as? String
            else { continue }
            var lines = record["lines"] as? [String] ?? []
            if let final = record["final"] as? String { lines.append(final) }
            #expect(answers[command] == nil, "two replies to \(command): \(json.stdout)")
            answers[command] = lines
        }
        #expect(answers["AT+CSQ"] == ["+CSQ: 20,99", "OK"], "\(json.stdout)")
        #expect(answers["AT"] == ["OK"], "\(json.stdout)")
        let stray = records.filter { ["partial_reply", "notification"].contains($0["type"] as? String) }
        #expect(stray.isEmpty, "\(json.stdout)")
    }

    /// A device that disconnects during a Lua script gave no message naming it.
    @Test func disconnectDuringALuaScriptNamesTheDevice() throws {
        let script = "devices.env:query('*IDN?')\nsleep(2000)\n"
        let json = try Subprocess.run(
            "tether",
            ["run", "-", "--lua", "--port", "env=sim", "--disconnect-after", "300", "--format", "json"], stdin: script)
        #expect(json.status == 74)
        let records = try JSONLines.parse(json.stdout)
        let disconnected = records.first { $0["type"] as? String == "disconnected" }
        #expect(disconnected?["device"] as? String == "env")
        #expect(records.last?["outcome"] as? String == "device_error")
        let text = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--port", "env=sim", "--disconnect-after", "300"], stdin: script)
        #expect(text.status == 74)
        #expect(text.stderr.contains("[env] disconnected: sim:env (/dev/pts/"), "\(text.stderr)")
    }

    @Test(arguments: [
        (["query", "/dev/null", "--latency", "10", "x"], "'--latency' applies only to '--sim'"),
        (
            ["query", "--sim", "--disconnect-after", "10", "--reappear-after", "10", "x"],
            "Unknown option '--reappear-after'"
        ),
        (
            ["query", "--sim", "--drop", "2", "x"],
            "The value '2' is invalid for '--drop <p>': must be a probability, 0 to 1"
        ),
    ])
    func faultMistakesAreUsageErrors(arguments: [String], message: String) throws {
        let result = try Subprocess.run("tether", arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: \(message)"), "\(result.stderr)")
    }
}
