import Synchronization
import Testing
import TetherModel
import TetherSerial

/// Timed line sequences: parsed from names and esptool's syntax, run by the port loop's
/// deadlines (the device is read throughout), refused by a port without line control.
@Suite struct LineSequenceTests {
    /// A socket transport with line control that records each change and when it came.
    final class LineTransport: SerialTransport, LineControl {
        let socket: SocketTransport
        let changes = Mutex<[(at: ContinuousClock.Instant, step: LineStep)]>([])
        init() throws { socket = try SocketTransport() }

        var name: String { socket.name }
        var descriptor: Int32 { socket.descriptor }
        func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
            try socket.receive(into: buffer)
        }
        func transmit(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int { try socket.transmit(bytes) }
        func close() { socket.close() }
        func setLines(dtr: Bool?, rts: Bool?) throws(SerialError) {
            changes.withLock { $0.append((.now, LineStep(dtr: dtr, rts: rts))) }
        }
        func setBreak(_ isOn: Bool) throws(SerialError) {
            changes.withLock { $0.append((.now, LineStep(isBreak: isOn))) }
        }
        func setDTR(_ asserted: Bool) throws(SerialError) {}
        func setRTS(_ asserted: Bool) throws(SerialError) {
            throw .io(path: name, function: "sp_set_rts", errno: 22, message: "RTS is the driver's")
        }
        func modemLines() throws(SerialError) -> ModemLines { [] }
        func sendBreak(milliseconds: Int) throws(SerialError) {}
        func pulseDTR(milliseconds: Int) throws(SerialError) {}
        func setBaudRate(_ baudRate: Int) throws(SerialError) {}
    }

    @Test func esptoolsClassicResetIsItsStepsAndTimings() throws {
        let classic = try #require(LineSequence.named("esptool-classic"))
        #expect(
            classic.steps == [
                LineStep(dtr: false), LineStep(rts: true, hold: .milliseconds(100)), LineStep(dtr: true),
                LineStep(rts: false, hold: .milliseconds(50)), LineStep(dtr: false),
            ])
        #expect(try LineSequence.parse("esptool-classic") == classic)
        #expect(try LineSequence.parse("D0|R1|W0.1|D1|R0|W0.05|D0").steps == classic.steps)
        #expect(
            try LineSequence.parse("U1,0|W0.2|B1|W0.25|B0").steps == [
                LineStep(dtr: true, rts: false, hold: .milliseconds(200)),
                LineStep(isBreak: true, hold: .milliseconds(250)),
                LineStep(isBreak: false),
            ])
        for name in ["esptool-unix-tight", "esptool-usb-jtag-serial", "esptool-hard-reset", "dtr-pulse"] {
            #expect(LineSequence.named(name)?.steps.isEmpty == false, "\(name)")
        }
    }

    @Test(arguments: ["D2", "U1", "W-1", "W61", "X1", "esptool-fast", ""])
    func aMistakeIsRefusedNamingIt(_ text: String) {
        #expect(throws: LineSequence.ParseError.self) { try LineSequence.parse(text) }
    }

    /// The holds are the loop's deadlines: the steps come apart by their holds, and a
    /// line the device sends during a hold is taken in meanwhile.
    @Test func aSequenceRunsByTheLoopsDeadlinesReadingMeanwhile() async throws {
        let transport = try LineTransport()
        let device = try Device(transport: transport, dialect: LineDialect(), settings: "115200 8N1")
        let events = device.events(.lossless)
        await device.start()
        // The line is sent once the first step is on the lines, so it arrives during the
        // hold however the machine schedules the test (a 50 ms sleep, then a 5 s bound on
        // the whole, failed on a loaded machine); 2 s is never waited out before it is read.
        async let run: Void = device.run(
            LineSequence(
                name: "test",
                steps: [LineStep(dtr: false, rts: true, hold: .seconds(2)), LineStep(dtr: true, rts: false)]))
        while transport.changes.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
        transport.socket.send("booting\n")
        try await run
        let changes = transport.changes.withLock { $0 }
        #expect(changes.map(\.step) == [LineStep(dtr: false, rts: true), LineStep(dtr: true, rts: false)])
        #expect(changes[1].at - changes[0].at >= .seconds(2))
        var kinds: [String] = []
        for await event in events {
            switch event.kind {
            case .lineControl(.sequence(let name, _)): kinds.append("sequence \(name)")
            case .lineControl(.lines): kinds.append("lines")
            case .session(.notification(let line)): kinds.append(line.text)
            default: break
            }
            if kinds.count == 4 { break }
        }
        #expect(kinds == ["sequence test", "lines", "booting", "lines"])
        await device.close()
    }

    @Test func aPortWithoutLineControlRefusesIt() async throws {
        let transport = try SocketTransport()
        let device = try Device(transport: transport, dialect: LineDialect(), settings: "115200 8N1")
        await device.start()
        await #expect(throws: SerialError.self) { try await device.setLines(dtr: true, rts: nil) }
        await device.close()
        await #expect(throws: SerialError.self) { try await device.sendBreak(milliseconds: 10) }
    }

    /// The opening sequence runs after the open, before the first command goes out.
    @Test func theOpeningSequenceRunsBeforeTheFirstCommand() async throws {
        let transport = try LineTransport()
        let device = try Device(
            transport: transport, dialect: LineDialect(), settings: "115200 8N1",
            openingSequence: LineSequence(name: "reset", steps: [LineStep(dtr: false, hold: .milliseconds(100))]))
        await device.start()
        let change = try #require(transport.changes.withLock { $0.first })
        device.send("x", timeout: nil)
        try await Task.sleep(for: .milliseconds(50))
        let write = try #require(transport.socket.transmits.withLock { $0.first })
        #expect(write.at - change.at >= .milliseconds(100))
        await device.close()
    }
}
