import Testing
import TetherModel
import TetherSerial

/// Breaks and framing errors reach a device's observers as `lineEvent`s, in order with
/// the lines, and never as data — through the port's own `PARMRK` decoding
/// (``MarkedSocketTransport``), since a pty cannot receive either (docs/HARDWARE.md).
@Suite struct LineEventDeviceTests {
    /// What the observers saw, as text: `line TEXT` or `event NAME`.
    private func observed(_ stream: [UInt8], checksParity: Bool = false, until count: Int) async throws -> [String] {
        let transport = try MarkedSocketTransport(checksParity: checksParity)
        let device = try Device(
            transport: transport, dialect: LineDialect(notificationPattern: try LinePattern(".")),
            settings: "115200 8N1")
        let events = device.events(.lossless)
        await device.start()
        transport.socket.send(stream)
        var seen: [String] = []
        for await event in events {
            switch event.kind {
            case .session(.notification(let line)): seen.append("line \(line.bytes)")
            case .lineEvent(let event): seen.append("event \(event)")
            default: break
            }
            if seen.count == count { break }
        }
        await device.close()
        return seen
    }

    /// A break between two lines: no 0x00 in either, the event between them.
    @Test func aBreakIsAnEventNotANul() async throws {
        let stream = Array("A\n".utf8) + [0xFF, 0x00, 0x00] + Array("B\n".utf8)
        #expect(
            try await observed(stream, until: 3) == [
                "line \(Array("A".utf8))", "event \(LineEvent.lineBreak)", "line \(Array("B".utf8))",
            ])
    }

    /// A character with a framing error (parity none) inside a line: the event comes
    /// when it was read, before the line it was cut from ends; the line keeps the
    /// data around it, and a 0xFF data byte stays 0xFF.
    @Test func aFramingErrorIsAnEventWithItsByte() async throws {
        let stream = Array("X".utf8) + [0xFF, 0x00, 0x7E] + [0xFF, 0xFF] + Array("Y\n".utf8)
        #expect(
            try await observed(stream, until: 2) == [
                "event \(LineEvent.framingError(byte: 0x7E))", "line \([0x58, 0xFF, 0x59])",
            ])
    }

    /// With parity checked, `PARMRK` cannot tell a framing from a parity error.
    @Test func withParityTheMarkSaysFramingOrParity() async throws {
        let stream = [0xFF, 0x00, 0x41] + Array("Z\n".utf8)
        #expect(
            try await observed(stream, checksParity: true, until: 2) == [
                "event \(LineEvent.framingOrParityError(byte: 0x41))", "line \(Array("Z".utf8))",
            ])
    }
}
