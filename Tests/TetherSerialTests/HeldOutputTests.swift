import Glibc
import Testing
import TetherLibC
import TetherModel
import TetherSerial

/// Output the line does not take at once (XOFF, CTS low, a device that stopped
/// reading) waits for the line, through libserialport on a real pty: the device here
/// stops reading its side, so the slave's output buffer fills (about 20 KiB) and
/// writes return `EAGAIN` until it reads again.
@Suite struct HeldOutputTests {
    private func device(on pty: PseudoTerminal, writeDeadline: WriteDeadline = WriteDeadline()) throws -> Device {
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        return try Device(transport: port, dialect: LineDialect(), settings: "115200 8N1", writeDeadline: writeDeadline)
    }

    /// A 60 000-byte command to a device that reads nothing for 500 ms, then reads
    /// everything and answers: the write completes within its deadline and the query
    /// gets its answer.
    @Test func aHeldWriteCompletesWhenTheDeviceReadsAgain() async throws {
        let pty = try PseudoTerminal()
        let device = try device(on: pty)
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

    /// A device that never reads again: the write is given up at its deadline and
    /// the request fails as not all sent (not a timeout, and no `sent` record before
    /// it for the command behind it, none of whose bytes left); the `error` event of
    /// old is gone.
    @Test func aWriteThatNeverCompletesFailsItsRequest() async throws {
        let pty = try PseudoTerminal()
        let rule = WriteDeadline(minimumMargin: .milliseconds(300), untimedMargin: .milliseconds(300))
        let device = try device(on: pty, writeDeadline: rule)
        let events = device.events(.lossless)
        await device.start()
        let command = String(repeating: "X", count: 60_000)
        let next = Task {
            try await Task.sleep(for: .milliseconds(100))
            return try await device.query("NEXT", timeout: .milliseconds(100))
        }
        do {
            _ = try await device.query(command, timeout: .milliseconds(100))
            Issue.record("the held command was answered")
        } catch {
            guard case .notAllSent(let reason) = error else { throw error }
            #expect(reason.hasPrefix("the port took "), "\(reason)")
            // 60 000 bytes at 115 200 baud take 5 208 ms on the wire, plus the margin.
            #expect(reason.contains(" of 60001 bytes in 5508 ms (output held by flow control"), "\(reason)")
        }
        await #expect(throws: RequestFailure.self) { try await next.value }
        await device.close()
        var sent: [String] = []
        var failed: [String] = []
        for await event in events {
            switch event.kind {
            case .error(let message): Issue.record("error event: \(message)")
            case .session(.sent(_, let command, _, _)): sent.append(String(command.prefix(4)))
            case .session(.failed(_, let command, let failure)): failed.append("\(command.prefix(4)) \(failure)")
            default: break
            }
        }
        #expect(sent == ["XXXX"], "\(sent)")
        #expect(failed.count == 2, "\(failed)")
        #expect(failed.last?.hasPrefix("NEXT not sent: the port took 0 of 5 bytes in 300 ms") == true, "\(failed)")
    }
}
