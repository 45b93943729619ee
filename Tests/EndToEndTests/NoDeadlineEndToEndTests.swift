import Foundation
import Testing
import TetherSimulator

/// `--timeout 0` means "no deadline" (documented in --help) —
/// never an instant timeout, never a hang.
@Suite struct NoDeadlineEndToEndTests {
    /// (a) The answer comes 300 ms after the command: it is the reply, exit 0.
    @Test func zeroWaitsForALateAnswer() throws {
        let rules = [
            ScriptedDevice.Rule(on: "AT\r", send: [ScriptedDevice.Chunk("\r\nOK\r\n", after: .milliseconds(300))])
        ]
        let simulator = try Simulator(device: ScriptedDevice(rules: rules))
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["query", simulator.devicePath, "--dialect", "at", "--timeout", "0", "AT"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("AT → OK  ("))
    }

    /// (b) The device never answers and hangs up 1 s later: exit 74 soon after the
    /// hang-up, without spinning while it waits.
    @Test func zeroEndsAtAHangUp() throws {
        let rules = [ScriptedDevice.Rule(on: "AT\r", send: [], hangUpAfter: .seconds(1))]
        let simulator = try Simulator(device: ScriptedDevice(rules: rules))
        defer { simulator.stop() }
        let started = Date()
        let result = try Subprocess.run(
            "tether", ["query", simulator.devicePath, "--dialect", "at", "--timeout", "0", "AT"], timeout: 30)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 74, "\(result.stdout)\(result.stderr)")
        #expect(elapsed < 10, "query took \(elapsed) s")
        #expect(result.cpuSeconds < 1.0, "query used \(result.cpuSeconds) s of CPU")
        #expect(result.stdout.contains("AT ✗ disconnected before the reply was complete"))
    }

    @Test func helpSaysWhatZeroMeans() throws {
        let help = try Subprocess.run("tether", ["query", "--help"])
        #expect(help.stdout.contains("0 waits without a deadline"))
    }
}
