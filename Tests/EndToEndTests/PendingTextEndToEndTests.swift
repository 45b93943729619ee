import Foundation
import Testing
import TetherSimulator

/// Text without a line end, through the built CLI and libserialport against a pty:
/// `monitor` reports it as it grows (docs/JSON.md, "Pending text").
@Suite struct PendingTextEndToEndTests {
    typealias Chunk = ScriptedDevice.Chunk

    /// A flashing tool: `Erasing flash: `, a `.` every 300 ms ten times, `done\r\n`.
    static func flashingTool() -> ScriptedDevice {
        ScriptedDevice(
            onOpen: [Chunk("Erasing flash: ", after: .milliseconds(300))]
                + (1...10).map { _ in Chunk(".", after: .milliseconds(300)) }
                + [Chunk("done\r\n", after: .milliseconds(300))])
    }

    /// `monitor --format json`: `pending_text` records that grow by the dots, then the
    /// whole line once as a notification.
    @Test func monitorWritesPendingTextRecords() throws {
        let simulator = try Simulator(device: Self.flashingTool())
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["monitor", simulator.devicePath, "--count", "1", "--format", "json"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try JSONLines.parse(result.stdout)
        let pending = objects.filter { $0["type"] as? String == "pending_text" }.compactMap { $0["text"] as? String }
        let notifications = objects.filter { $0["type"] as? String == "notification" }.compactMap {
            $0["line"] as? String
        }
        #expect(notifications == ["Erasing flash: ..........done"])
        // A loaded machine may merge two dots into one report, never reorder them.
        #expect(pending.first == "Erasing flash: ", "\(pending)")
        #expect(pending.last == "Erasing flash: ..........", "\(pending)")
        #expect(pending.count >= 6, "\(pending)")
        #expect(zip(pending, pending.dropFirst()).allSatisfy { $1.hasPrefix($0) && $1.count > $0.count })
        let types = objects.compactMap { $0["type"] as? String }
        #expect(types.last == "notification", "nothing is pending after the line: \(types)")
    }

    /// The text view to a pipe: each report is a line ending in `[pending]`.
    @Test func monitorToAPipeMarksPendingLines() throws {
        let simulator = try Simulator(device: Self.flashingTool())
        defer { simulator.stop() }
        let result = try Subprocess.run("tether", ["monitor", simulator.devicePath, "--count", "1"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Erasing flash:  [pending]", "\(lines)")
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix(" [pending]") }, "\(lines)")
        #expect(lines.last == "Erasing flash: ..........done", "\(lines)")
    }
}
