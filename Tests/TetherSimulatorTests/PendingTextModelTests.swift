import Testing
import TetherModel
import TetherSerial

@testable import TetherSimulator

/// Pending text through the real path: a device on a pty, libserialport and the port
/// loop, whose quiet deadline reports it (docs/ARCHITECTURE.md, "The byte path").
@Suite struct PendingTextModelTests {
    /// A flashing tool: `Erasing flash: `, a `.` every 300 ms ten times, `done\r\n`.
    static let flashing = ScriptedDevice(
        onOpen: [ScriptedDevice.Chunk("Erasing flash: ", after: .milliseconds(200))]
            + (1...10).map { _ in ScriptedDevice.Chunk(".", after: .milliseconds(300)) }
            + [ScriptedDevice.Chunk("done\r\n", after: .milliseconds(300))])

    /// Each piece is reported as pending text once the line is quiet, whole and
    /// growing; the line comes once, as a notification, and nothing is pending after it.
    @Test func flashingProgressArrivesAsPendingText() async throws {
        let simulator = try Simulator(device: Self.flashing)
        defer { simulator.stop() }
        let port = try SerialPort.open(simulator.devicePath, configuration: SerialConfiguration())
        let device = try Device(transport: port, dialect: LineDialect(), settings: "115200 8N1")
        let events = device.events(.lossless)
        await device.start()
        var pending: [String] = []
        var lines: [String] = []
        for await event in events {
            switch event.kind {
            case .session(.pendingText(let line, _)): pending.append(line.text)
            case .session(.notification(let line)): lines.append(line.text)
            default: break
            }
            if lines.last?.hasSuffix("done") == true { break }
        }
        await device.close()
        #expect(lines == ["Erasing flash: ..........done"])
        // A loaded machine may merge two pieces into one report, never reorder them.
        #expect(pending.first == "Erasing flash: ", "\(pending)")
        #expect(pending.last == "Erasing flash: ..........", "\(pending)")
        #expect(pending.count >= 6, "\(pending)")
        #expect(zip(pending, pending.dropFirst()).allSatisfy { $1.hasPrefix($0) && $1.count > $0.count }, "\(pending)")
    }
}
