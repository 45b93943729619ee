import Glibc
import Synchronization
import Testing
import TetherModel
import TetherSerial
import TetherTransfer

/// ``Device/transfer(_:report:)``: the port loop drives a transfer machine against a
/// peer machine played on a socket pair, and the session gets the line back after it.
@Suite struct DeviceTransferTests {
    private func device(_ transport: SocketTransport) throws -> Device {
        try Device(transport: transport, dialect: LineDialect(), settings: "115200 8N1")
    }

    /// Runs `machine` as the device on the peer end until it finishes; polls without
    /// blocking between short sleeps, like ``SocketTransport/receivedBytes(count:timeout:)``.
    private func play(_ machine: some TransferMachine, on transport: SocketTransport) async -> [TransferAction] {
        var machine = machine
        var actions = machine.start(now: .now)
        var written = 0
        let end = ContinuousClock.now + .seconds(120)
        while !machine.isFinished, ContinuousClock.now < end {
            for case .write(let bytes) in actions[written...] { transport.send(bytes) }
            written = actions.count
            var entry = pollfd(fd: transport.peer, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, 0) > 0 {
                var chunk = [UInt8](repeating: 0, count: 65_536)
                let count = Glibc.read(transport.peer, &chunk, chunk.count)
                guard count > 0 else { break }
                actions += machine.receive(Array(chunk[..<count]), now: .now)
            } else if let deadline = machine.nextDeadline, deadline <= .now {
                actions += machine.expire(now: .now)
            } else {
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        for case .write(let bytes) in actions[written...] { transport.send(bytes) }
        return actions
    }

    /// YMODEM from tether to the device: the file arrives whole, progress is reported,
    /// and a query after the transfer gets its reply as usual. (Regression: with the
    /// device started first, a `C` sent before the transfer began became the start of a
    /// line, the transfer waited 10 s for the next, and the query's reply was taken
    /// for the end of that line.)
    @Test func sendThenQueryAgain() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        // Not started: the transfer starts it, so the peer's first `C` — which may come
        // before the transfer begins — waits at open and goes to the transfer.
        let file = TransferFile(name: "image.bin", data: (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        async let peer = play(TransferReceiver(.ymodem), on: transport)
        let reports = ReportLog()
        let outcome = await device.transfer(TransferSender(.ymodem, files: [file])) { reports.add($0) }
        #expect(outcome == .completed(files: [file]))
        let actions = await peer
        #expect(actions.last == .finished(.completed(files: [file])))
        #expect(reports.events.first == .started(name: "image.bin", size: 50_000))
        #expect(reports.events.last == .progress(TransferProgress(bytes: 50_000, total: 50_000, retries: 0)))
        async let reply = device.query("AFTER", timeout: .seconds(20))
        #expect(await transport.received(count: 6) == "AFTER\n")
        transport.send("done\n")
        #expect(try await reply.lines.map(\.text) == ["done"])
        await device.close()
    }

    /// XMODEM-CRC from the device to tether: bytes mid-transfer are not lines, and the
    /// file is reported received.
    @Test func receive() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        let events = device.events(.lossless)
        await device.start()
        let data = (0..<3_000).map { UInt8(truncatingIfNeeded: $0) }
        async let peer = play(TransferSender(.xmodemCRC, files: [TransferFile(name: "x", data: data)]), on: transport)
        let reports = ReportLog()
        let outcome = await device.transfer(TransferReceiver(.xmodemCRC)) { reports.add($0) }
        let padded = data + Array(repeating: 0x1A, count: 3_072 - 3_000)
        #expect(outcome == .completed(files: [TransferFile(name: nil, data: padded)]))
        #expect(reports.events.contains(.received(TransferFile(name: nil, data: padded))))
        _ = await peer
        await device.close()
        for await event in events {
            if case .session(.notification) = event.kind { Issue.record("a transfer byte became a line") }
        }
    }

    /// Cancelling the task writes the cancel sequence: the peer sees CAN CAN.
    @Test func cancelling() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        await device.start()
        let sending = Task {
            await device.transfer(TransferSender(.xmodem1K, files: [TransferFile(name: "x", data: [1, 2, 3])]))
        }
        try await Task.sleep(for: .milliseconds(50))
        sending.cancel()
        #expect(await sending.value == .failed(.cancelled))
        #expect(await transport.receivedBytes(count: 5) == ControlByte.cancelSequence)
        await device.close()
    }

    /// The device hanging up ends the transfer as disconnected.
    @Test func hangUp() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        await device.start()
        async let outcome = device.transfer(TransferReceiver(.ymodem))
        #expect(await transport.receivedBytes(count: 1) == [0x43])
        transport.closePeer()
        guard case .failed(.disconnected) = await outcome else {
            Issue.record("expected a disconnect")
            return
        }
        await device.close()
    }
}

/// The events a transfer reported, from the port loop thread.
final class ReportLog: Sendable {
    private let log = Mutex<[TransferEvent]>([])
    var events: [TransferEvent] { log.withLock { $0 } }
    func add(_ event: TransferEvent) { log.withLock { $0.append(event) } }
}
