import Testing
import TetherModel
import TetherSerial
import TetherSimulator

/// The library face shown in docs/SCRIPTING.md: open by path, query, send, and
/// notifications as an `AsyncSequence`.
@Suite struct DeviceAPITests {
    @Test func openQuerySendAndNotifications() async throws {
        let simulator = try Simulator(device: SimulatorProfiles.defaultDevice())
        defer { simulator.stop() }
        let device = try Device.open(
            simulator.devicePath, configuration: SerialConfiguration(baudRate: 9600),
            dialect: LineDialect(notificationPattern: try LinePattern("^!")))
        let events = device.events()
        await device.start()
        let reply = try await device.query("*IDN?", timeout: .seconds(2))
        #expect(reply.lines.map(\.text) == ["TETHER,ENV-1,SIM0001,1.0"])
        let id = device.send("ALARM:TEST", timeout: .seconds(2))
        var sawReply = false
        for await event in events {
            if case .session(.replied(id, _, let reply, _)) = event.kind {
                sawReply = reply.lines.map(\.text) == ["OK"]
            }
            if case .session(.notification(let line)) = event.kind, line.text.hasPrefix("!ALARM test") { break }
        }
        #expect(sawReply, "the sent command's reply arrives as an event, before the alarm")
        await device.close()
        #expect(device.port == simulator.devicePath)
    }
}
