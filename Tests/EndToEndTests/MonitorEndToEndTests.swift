import Foundation
import Testing
import TetherSimulator

@Suite struct MonitorEndToEndTests {
    /// `monitor --count N` on a pty device that sends `bytes` once it is opened: the text
    /// output (docs/DIALECTS.md, "Rules every dialect shares": a blank line is framing).
    private func monitor(_ bytes: String, count: Int) throws -> Subprocess.Result {
        let device = ScriptedDevice(onOpen: [.init(bytes, after: .milliseconds(300))])
        let simulator = try Simulator(device: device)
        defer { simulator.stop() }
        return try Subprocess.run("tether", ["monitor", simulator.devicePath, "--count", "\(count)"], timeout: 60)
    }

    /// A modem's standard `\r\nRING\r\n` on the default `line` dialect: `--count 1`
    /// shows `RING`, not the empty line its CR LF heads it with.
    @Test func countOneShowsTheRingAfterItsCRLF() throws {
        let result = try monitor("\r\nRING\r\n", count: 1)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "RING\n")
    }

    /// A board ending its lines with LF CR: no blank line after each (`--count 2` would
    /// stop at the first one).
    @Test func lfCRLineEndsShowNoBlankLines() throws {
        let result = try monitor("Model: pcDuino3\n\rBoard: sun7i\n\r", count: 2)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Model: pcDuino3\nBoard: sun7i\n")
    }

    @Test func countStopsAfterThreeNotifications() throws {
        let result = try Subprocess.run("tether", ["monitor", "--sim", "--count", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("!READING temp=") })
    }

    @Test func jsonNotificationsCarryReadings() throws {
        let result = try Subprocess.run("tether", ["monitor", "--sim", "--count", "2", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let notifications = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "notification" }
        #expect(notifications.count == 2)
        let readings = try #require(notifications.first?["readings"] as? [String: Any])
        #expect(readings["temp"] is Double)
    }

    /// Stopping the simulator under `tether monitor L --no-reconnect` ends it promptly with a clear
    /// message and exit 74, without spinning.
    @Test func simulatorStoppingEndsMonitorQuietly() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("device")
        let simulator = try Subprocess("tether-sim", ["--link", link])
        #expect(simulator.waitForOutput(containing: link))
        let monitor = try Subprocess("tether", ["monitor", link, "--no-reconnect"])
        #expect(monitor.waitForOutput(containing: "!READING"))
        simulator.send(SIGTERM)
        _ = simulator.wait()
        let stoppedAt = Date()
        let result = monitor.wait(timeout: 30)
        let elapsed = Date().timeIntervalSince(stoppedAt)
        #expect(result.status == 74)
        #expect(result.stderr.contains("disconnected: \(link)"))
        // Without noticing it, monitor would wait until killed (30 s); 15 s holds on a
        // loaded machine.
        #expect(elapsed < 15, "monitor took \(elapsed) s to notice the hang-up")
        #expect(result.cpuSeconds < 1.0, "monitor used \(result.cpuSeconds) s of CPU")
    }
}
