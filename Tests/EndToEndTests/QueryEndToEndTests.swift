import Foundation
import Testing
import TetherSimulator

/// `tether query` driven as a user would, through the built CLI, the real
/// libserialport path and the pty simulator.
@Suite struct QueryEndToEndTests {
    @Test func identityInText() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "*IDN?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("*IDN? → TETHER,ENV-1,SIM0001,1.0  ("))
    }

    @Test func identityInJSON() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--format", "json", "*IDN?"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try JSONLines.parse(result.stdout)
        let reply = try #require(objects.first { $0["type"] as? String == "reply" })
        #expect(reply["command"] as? String == "*IDN?")
        #expect(reply["lines"] as? [String] == ["TETHER,ENV-1,SIM0001,1.0"])
        #expect(reply["error"] as? Bool == false)
        #expect(objects.first?["type"] as? String == "connected")
    }

    /// A record that cannot be written is an error, never a skip: with standard
    /// output on a full disk (`/dev/full`) query says so and exits 74.
    @Test(arguments: ["json", "text"])
    func outputThatCannotBeWrittenExits74(format: String) throws {
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let result = try Subprocess.run(
            path: "/bin/sh", ["-c", "exec \"$0\" query --sim --format \(format) '*IDN?' > /dev/full", tether])
        #expect(result.status == 74)
        #expect(result.stderr.contains("Error: cannot write to standard output: No space left on device"))
    }

    @Test func errorReplyExitsOne() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "SETP 99", "SETP?"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("SETP 99 ✗ ERR -222,\"Data out of range\""))
        #expect(result.stdout.contains("SETP? → 22.0"))
    }

    /// A device answering 3 s late, past the 1 s timeout: each answer is the late reply
    /// of its own command, in order, in both views. Printed before: `TEMP? →
    /// TETHER,ENV-1,…  [in doubt]`, then `41.5` and `21.49` as bare lines, and a note
    /// that the late reply to `HUM?` never came (docs/DIALECTS.md, "After a timeout").
    @Test func lateRepliesAreEachTheirOwnCommands() throws {
        let arguments = ["query", "--sim", "--latency", "3000", "--linger", "1500", "*IDN?", "HUM?", "TEMP?"]
        let text = try Subprocess.run("tether", arguments)
        #expect(text.status == 75, "\(text.stderr)")
        let shown = text.stdout.split(separator: "\n").filter { !$0.hasPrefix("!READING") }.map(String.init)
        #expect(shown.count == 6, "\(text.stdout)")
        #expect(
            shown.prefix(3) == [
                "*IDN? ✗ no reply within 1000 ms", "HUM? ✗ no reply within 1000 ms", "TEMP? ✗ no reply within 1000 ms",
            ])
        #expect(shown.dropFirst(3).first == "late reply to *IDN?: TETHER,ENV-1,SIM0001,1.0")
        #expect(shown.dropFirst(4).first?.hasPrefix("late reply to HUM?: 4") == true)
        #expect(shown.dropFirst(5).first?.hasPrefix("late reply to TEMP?: 2") == true)
        #expect(!text.stderr.contains("note:"), "\(text.stderr)")

        let json = try Subprocess.run("tether", arguments + ["--format", "json"])
        let records = try JSONLines.parse(json.stdout).filter { $0["type"] as? String != "notification" }
        let late = records.filter { $0["type"] as? String == "late_reply" }
        #expect(late.map { $0["command"] as? String } == ["*IDN?", "HUM?", "TEMP?"], "\(json.stdout)")
        #expect(late.first?["lines"] as? [String] == ["TETHER,ENV-1,SIM0001,1.0"])
        #expect(late.allSatisfy { $0["in_doubt"] == nil })
        #expect(!records.contains { ["reply", "settling"].contains($0["type"] as? String) }, "\(json.stdout)")
    }

    /// `tether query --sim "$(python3 -c 'print("A"*120000)')"`: the device answers
    /// `ERR -363` (input buffer overrun) before the write is done. That answer was
    /// shown as a notification, then `no reply within 1000 ms`; it is the reply (exit 1).
    @Test(arguments: ["text", "json"])
    func anAnswerDuringALongWriteIsTheReply(format: String) throws {
        let command = String(repeating: "A", count: 120_000)
        let result = try Subprocess.run("tether", ["query", "--sim", "--format", format, command])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(!result.stdout.contains("no reply within"))
        if format == "text" {
            let reply = result.stdout.split(separator: "\n").filter { !$0.hasPrefix("!READING") }
            #expect(reply.count == 1 && reply[0].hasPrefix(command + " ✗ ERR -363,\"Input buffer overrun\"  ("))
        } else {
            let records = try JSONLines.parse(result.stdout).filter { $0["type"] as? String != "notification" }
            #expect(records.map { $0["type"] as? String } == ["connected", "sent", "reply"])
            #expect(records.last?["lines"] as? [String] == ["ERR -363,\"Input buffer overrun\""])
            #expect(records.last?["error"] as? Bool == true)
        }
    }

    /// A device that never answers: exit 75 at the documented default timeout.
    @Test func silentDeviceTimesOutWithItsOwnCode() throws {
        let device = try Simulator(device: ScriptedDevice())
        defer { device.stop() }
        let result = try Subprocess.run("tether", ["query", device.devicePath, "AT"])
        #expect(result.status == 75, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("AT ✗ no reply within 1000 ms"))
    }

    /// `tether-sim --link L` then `tether query L …` opens the symlink by path.
    @Test func querySimulatorThroughItsLink() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("device")
        let simulator = try Subprocess("tether-sim", ["--link", link])
        defer {
            simulator.send(SIGTERM)
            _ = simulator.wait()
        }
        #expect(simulator.waitForOutput(containing: link))
        let result = try Subprocess.run("tether", ["query", link, "*IDN?", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let reply = try #require(try JSONLines.parse(result.stdout).first { $0["type"] as? String == "reply" })
        #expect(reply["lines"] as? [String] == ["TETHER,ENV-1,SIM0001,1.0"])
        #expect(reply["port"] as? String == link)
    }
}
