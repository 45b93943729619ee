import Glibc
import Testing
import TetherModel
import TetherSerial

/// Output the line does not take at once (XOFF, CTS low, a device that stopped
/// reading) waits for the line, through libserialport on a real pty: the device here
/// stops reading its side, so the slave's output buffer fills (about 20 KiB) and
/// writes return `EAGAIN` until it reads again.
@Suite struct HeldOutputTests {
    private func device(on pty: PseudoTerminal, writeTimeout: Int) throws -> Device {
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        return try Device(transport: port, dialect: LineDialect(), settings: "115200 8N1", writeTimeout: writeTimeout)
    }

    /// A 60 000-byte command to a device that reads nothing for 500 ms, then reads
    /// everything and answers: the write completes within its 3 s write timeout and
    /// the query gets its answer.
    @Test func aHeldWriteCompletesWhenTheDeviceReadsAgain() async throws {
        let pty = try PseudoTerminal()
        let device = try device(on: pty, writeTimeout: 3_000)
        await device.start()
        let command = String(repeating: "X", count: 60_000)
        let query = Task { try await device.query(command, timeout: .seconds(10)) }
        try await Task.sleep(for: .milliseconds(500))
        let received = try await onDedicatedThread { pty.receive(count: 60_001, timeout: 10_000) }
        #expect(received.count == 60_001)
        #expect(received.last == 0x0A)
        try pty.send(Array("OK\r\n".utf8))
        #expect(try await query.value.lines.map(\.text) == ["OK"])
        await device.close()
    }

    /// A device that never reads again: the write is given up after the write
    /// timeout with an `error` event saying how much was taken, and the query times
    /// out as usual.
    @Test func aWriteThatNeverCompletesIsReportedAfterTheWriteTimeout() async throws {
        let pty = try PseudoTerminal()
        let device = try device(on: pty, writeTimeout: 300)
        let events = device.events(.lossless)
        await device.start()
        let command = String(repeating: "X", count: 60_000)
        await #expect(throws: RequestFailure.timedOut(.seconds(1))) {
            try await device.query(command, timeout: .seconds(1))
        }
        await device.close()
        var errors: [String] = []
        for await event in events {
            if case .error(let message) = event.kind { errors.append(message) }
        }
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("write failed: the port took ") == true, "\(errors)")
        #expect(errors.first?.contains("of 60001 bytes in 300 ms") == true, "\(errors)")
    }
}
