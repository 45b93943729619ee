import Foundation
import Testing
import TetherSimulator

/// Settings as the port has them (docs/HARDWARE.md, "Settings as the port has
/// them"): a pty ignores parity and data bits, and tether says so the same way for
/// every parity, through the built CLI and the real libserialport path.
@Suite struct SettingsReadBackEndToEndTests {
    /// Odd, mark and space used to be shown as applied (`connected (115200 8O1)`)
    /// while even was refused; now each is a warning after `connected`, which shows
    /// what the port has, and the query still runs.
    @Test(arguments: ["odd", "even", "mark", "space"])
    func everyParityThePtyIgnoresIsAWarning(parity: String) throws {
        let text = try Subprocess.run("tether", ["query", "--sim", "--parity", parity, "*IDN?"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("*IDN? → TETHER,ENV-1,SIM0001,1.0"))
        let lines = text.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(text.stderr)")
        #expect(lines.first?.hasPrefix("connected to sim:env (/dev/pts/") == true)
        #expect(lines.first?.hasSuffix(") (115200 8N1)") == true)
        #expect(lines.last?.hasSuffix("): parity \(parity) was asked for, the port has none") == true)
        #expect(lines.last?.hasPrefix("warning: sim:env (/dev/pts/") == true)

        let json = try Subprocess.run("tether", ["query", "--sim", "--parity", parity, "--format", "json", "*IDN?"])
        #expect(json.status == 0, "\(json.stderr)")
        let objects = try JSONLines.parse(json.stdout)
        #expect(objects.map { $0["type"] as? String } == ["connected", "warning", "sent", "reply"])
        #expect(objects[0]["settings"] as? String == "115200 8N1")
        #expect(objects[1]["setting"] as? String == "parity")
        #expect(objects[1]["requested"] as? String == parity)
        #expect(objects[1]["actual"] as? String == "none")
        #expect(json.stderr.isEmpty, "\(json.stderr)")
    }

    /// `--strict-settings` makes the difference an error with its own exit code, for
    /// every parity alike, before anything is sent. The open's `connected` and
    /// `warning` records still reach JSON and the log (they used to be lost, and the
    /// error named `/dev/pts/N` where the warning names `sim:env (/dev/pts/N)`).
    @Test(arguments: ["odd", "even", "mark", "space"])
    func strictSettingsExits78(parity: String) throws {
        let folder = try TemporaryFolder()
        let log = folder.path("s.jsonl")
        let result = try Subprocess.run(
            "tether",
            ["query", "--sim", "--parity", parity, "--strict-settings", "--format", "json", "--log", log, "*IDN?"])
        #expect(result.status == 78, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: sim:env (/dev/pts/"))
        #expect(result.stderr.hasSuffix("): settings not applied: parity \(parity) was asked for, the port has none\n"))
        for output in [result.stdout, try String(contentsOfFile: log, encoding: .utf8)] {
            let objects = try JSONLines.parse(output)
            #expect(objects.map { $0["type"] as? String } == ["connected", "warning"])
            #expect(objects.last?["setting"] as? String == "parity")
            #expect((objects.last?["port"] as? String)?.hasPrefix("sim:env (/dev/pts/") == true)
        }
    }

    /// `tether run examples/chamber.txt --port env=sim,parity=mark --strict-settings
    /// --format json` wrote nothing: now the open's records, then the summary, as for a
    /// port that does not exist.
    @Test func strictSettingsInARunEndsWithTheSummary() throws {
        let chamber = RunEndToEndTests.root.appendingPathComponent("examples/chamber.txt").path
        let result = try Subprocess.run(
            "tether", ["run", chamber, "--port", "env=sim,parity=mark", "--strict-settings", "--format", "json"])
        #expect(result.status == 78, "\(result.stdout)\(result.stderr)")
        let objects = try JSONLines.parse(result.stdout)
        #expect(objects.map { $0["type"] as? String } == ["connected", "warning", "summary"])
        #expect(objects.last?["outcome"] as? String == "device_error")

        let missing = try Subprocess.run(
            "tether", ["run", chamber, "--port", "env=/dev/tether-no-such-port", "--format", "json"])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(try JSONLines.parse(missing.stdout).map { $0["type"] as? String } == ["summary"])
    }

    /// Settings the pty keeps pass `--strict-settings`: a non-standard baud rate reads
    /// back exactly, and 2 stop bits and RTS/CTS stay.
    @Test func settingsThePortHasPassStrictSettings() throws {
        let result = try Subprocess.run(
            "tether",
            [
                "query", "--sim", "--baud", "250000", "--stop-bits", "2", "--flow-control", "rtscts",
                "--strict-settings", "--format", "json", "*IDN?",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try JSONLines.parse(result.stdout)
        #expect(objects.first?["settings"] as? String == "250000 8N2 RTS/CTS")
        #expect(!objects.contains { $0["type"] as? String == "warning" })
    }

    /// A pty path, as a user opens `tether-sim --link` or socat's pty: the data bits,
    /// parity and a DTR/DSR flow control libserialport refuses on Linux, each named.
    @Test func everyDifferingSettingOfAPtyPathIsNamed() throws {
        let simulator = try Simulator()
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether",
            [
                "query", simulator.devicePath, "--data-bits", "7", "--parity", "even", "--flow-control", "dtrdsr",
                "--format", "json", "*IDN?",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "warning" }
        #expect(
            warnings.map { [$0["setting"] as? String, $0["requested"] as? String, $0["actual"] as? String] } == [
                ["data bits", "7", "8"], ["parity", "even", "none"], ["flow control", "DTR/DSR", "none"],
            ])
        #expect(
            warnings.first?["message"] as? String
                == "\(simulator.devicePath): data bits 7 was asked for, the port has 8")
    }

    /// After a reconnect the settings are read back again: `reconnected` shows what the
    /// reopened port has, and the warning follows it again.
    @Test func aReconnectReadsTheSettingsBackAgain() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("device")
        let first = try Simulator(link: link)
        let monitor = try Subprocess(
            "tether", ["monitor", link, "--baud", "250000", "--parity", "odd", "--format", "json"])
        defer {
            monitor.send(SIGTERM)
            _ = monitor.wait()
        }
        #expect(monitor.waitForOutput(containing: #""type":"warning""#))
        first.stop()
        #expect(monitor.waitForOutput(containing: #""type":"reconnecting""#, timeout: 10))
        let second = try Simulator(link: link)
        defer { second.stop() }
        #expect(monitor.waitForOutput(containing: #""type":"reconnected""#, timeout: 10))
        #expect(
            waitUntil {
                let objects = (try? JSONLines.parse(monitor.stdoutSoFar)) ?? []
                return objects.drop { $0["type"] as? String != "reconnected" }.contains {
                    $0["type"] as? String == "warning"
                }
            })
        let objects = try JSONLines.parse(monitor.stdoutSoFar)
        let opened = objects.filter { ["connected", "reconnected"].contains($0["type"] as? String) }
        #expect(opened.map { $0["settings"] as? String } == ["250000 8N1", "250000 8N1"])
        let warnings = objects.filter { $0["type"] as? String == "warning" }
        #expect(warnings.count == 2)
        #expect(warnings.allSatisfy { $0["setting"] as? String == "parity" && $0["actual"] as? String == "none" })
    }
}
