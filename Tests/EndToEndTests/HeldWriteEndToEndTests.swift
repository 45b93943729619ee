import Foundation
import Testing
import TetherSimulator

/// A command the port cannot take at once (docs/RELIABILITY.md, "Deadlines"): its write
/// has until its bytes' time on the wire at the port's baud rate plus a margin that
/// follows `--timeout`; a request whose bytes did not all leave has failed (exit 74),
/// and `--timeout 0` still ends.
@Suite struct HeldWriteEndToEndTests {
    /// A 20 000-byte command (20 001 with its line end), then the device's `OK`.
    private static let command = String(repeating: "D", count: 19_996) + "END?"
    /// A 60 000-byte command: more than the pty's buffers take at once.
    private static let longCommand = String(repeating: "D", count: 59_996) + "END?"

    private func simulator(_ faults: FaultPlan) throws -> Simulator {
        let rules = [ScriptedDevice.Rule(on: "END?\n", send: [ScriptedDevice.Chunk("OK\r\n")])]
        return try Simulator(device: ScriptedDevice(rules: rules), faults: faults)
    }

    private func query(
        _ simulator: Simulator, baud: Int, timeout: Int, command: String = Self.command
    ) throws -> Subprocess.Result {
        try Subprocess.run(
            "tether",
            ["query", simulator.devicePath, "--baud", "\(baud)", "--timeout", "\(timeout)", command],
            timeout: 90)
    }

    /// A 20 000-byte command to a device draining at 9600 baud, the port set to 9600
    /// baud: about 20 834 ms on the wire, far past the 2 000 ms `--timeout`, yet the
    /// write's deadline is that wire time plus the timeout, so the command goes out
    /// whole and is answered.
    @Test func aLongCommandToADeviceDrainingAtTheBaudRateCompletes() throws {
        var faults = FaultPlan()
        faults.drainBaud = 9600
        let simulator = try simulator(faults)
        defer { simulator.stop() }
        let result = try query(simulator, baud: 9600, timeout: 2000)
        #expect(result.status == 0, "\(result.stdout.suffix(200))\(result.stderr)")
        #expect(result.stdout.suffix(400).contains("END? → OK"), "\(result.stdout.suffix(200))")
    }

    /// A device draining at 9600 baud, a 60 000-byte command, the port set to 115 200 baud: the write
    /// may take 5 208 ms on the wire plus the 2 000 ms timeout; the device is slower, so
    /// the request fails as not all sent — exit 74, not a timeout.
    @Test func aCommandTheDeviceCannotTakeInTimeFails() throws {
        var faults = FaultPlan()
        faults.drainBaud = 9600
        let simulator = try simulator(faults)
        defer { simulator.stop() }
        let result = try query(simulator, baud: 115_200, timeout: 2000, command: Self.longCommand)
        #expect(result.status == 74, "\(result.stdout.suffix(200))\(result.stderr)")
        #expect(result.stdout.suffix(400).contains("✗ not all sent: the port took "), "\(result.stdout.suffix(200))")
        #expect(
            result.stdout.suffix(400).contains(
                " of 60001 bytes in 7208 ms (output held by flow control, or the device stopped reading)"),
            "\(result.stdout.suffix(200))")
        #expect(!result.stdout.suffix(400).contains("no reply within"), "\(result.stdout.suffix(200))")
    }

    /// A device that holds its input for 3 s (XOFF during a flash write), then reads
    /// everything: under `--timeout 5000` the write waits and the command is answered.
    @Test func inputHeldForThreeSecondsUnderAFiveSecondTimeoutCompletes() throws {
        var faults = FaultPlan()
        faults.holdInput = .seconds(3)
        let simulator = try simulator(faults)
        defer { simulator.stop() }
        let result = try query(simulator, baud: 115_200, timeout: 5000)
        #expect(result.status == 0, "\(result.stdout.suffix(200))\(result.stderr)")
        #expect(result.stdout.suffix(400).contains("END? → OK"), "\(result.stdout.suffix(200))")
    }

    /// A device that never reads again, a 60 000-byte command, `--timeout 0` (no reply
    /// deadline): the write still ends, after its wire time and the 10 000 ms margin,
    /// exit 74.
    @Test func aWriteThatNeverCompletesEndsUnderTimeoutZero() throws {
        var faults = FaultPlan()
        faults.holdInput = .seconds(600)
        let simulator = try simulator(faults)
        defer { simulator.stop() }
        let result = try query(simulator, baud: 115_200, timeout: 0, command: Self.longCommand)
        #expect(result.status == 74, "\(result.stdout.suffix(200))\(result.stderr)")
        #expect(
            result.stdout.suffix(400).contains(" of 60001 bytes in 15208 ms (output held by flow control"),
            "\(result.stdout.suffix(200))")
    }
}
