import Synchronization
import Testing
import TetherModel
import TetherSerial

/// Bytes as first-class values of ``Device``: exact-byte commands, raw writes in turn,
/// immediate writes past the request in flight, received bytes as events and pacing —
/// against a device played on a socket pair.
@Suite struct DeviceBytesTests {
    private func device(_ transport: SocketTransport, pacing: Pacing = Pacing()) throws -> Device {
        try Device(
            transport: transport, dialect: LineDialect(notificationPattern: try LinePattern("^!")),
            settings: "115200 8N1", pacing: pacing)
    }

    /// Every byte of a command goes out as it is — 0xFF stays 0xFF, not U+FFFD — and
    /// `sent` carries those bytes.
    @Test func aCommandsBytesAreWrittenExactly() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        let events = device.events(.lossless)
        await device.start()
        let id = device.send(bytes: [0x7F, 0xFF, 0x00, 0x41], timeout: .seconds(20))
        #expect(await transport.receivedBytes(count: 5) == [0x7F, 0xFF, 0x00, 0x41, 0x0A])
        for await event in events {
            guard case .session(.sent(id, let command, let bytes, let isRaw)) = event.kind else { continue }
            #expect(bytes == [0x7F, 0xFF, 0x00, 0x41])
            #expect(command == "\u{7F}\u{FFFD}\u{0}A")
            #expect(!isRaw)
            break
        }
        await device.close()
    }

    /// Ctrl-C while `RUN` waits (20 s timeout) with `NEXT` queued: 0x03 goes out at
    /// once, before `NEXT`; `RUN` stays in flight and ends on the device's answer,
    /// and only then is `NEXT` written. The write is published as `wroteNow`.
    @Test func anImmediateWriteGoesAheadWhileTheRequestStaysInFlight() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        let events = device.events(.lossless)
        await device.start()
        async let reply = device.query("RUN", timeout: .seconds(20))
        #expect(await transport.received(count: 4) == "RUN\n")
        device.send("NEXT", timeout: .seconds(20))
        device.writeNow([0x03])
        #expect(await transport.receivedBytes(count: 1) == [0x03])
        transport.send("stopped\n")
        #expect(try await reply.lines.map(\.text) == ["stopped"])
        #expect(await transport.received(count: 5) == "NEXT\n")
        var kinds: [String] = []
        for await event in events {
            switch event.kind {
            case .wroteNow(let bytes): kinds.append("wroteNow \(bytes)")
            case .session(.sent(_, let command, _, _)): kinds.append("sent \(command)")
            case .session(.replied(_, let command, _, _)): kinds.append("replied \(command)")
            default: break
            }
            if kinds.count == 4 { break }
        }
        #expect(kinds == ["sent RUN", "wroteNow [3]", "replied RUN", "sent NEXT"])
        await device.close()
    }

    /// A raw write queued behind a query waits its turn, goes out exactly (no
    /// terminator) and is done once written: the command after it follows at once.
    @Test func aRawWriteKeepsItsPlaceAmongTheQueries() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        await device.start()
        async let reply = device.query("A", timeout: .seconds(20))
        #expect(await transport.received(count: 2) == "A\n")
        let raw = device.write([0x1B, 0x5B])
        async let second = device.query("B", timeout: .seconds(20))
        transport.send("ok\n")
        #expect(try await reply.lines.map(\.text) == ["ok"])
        #expect(await transport.receivedBytes(count: 4) == [0x1B, 0x5B, 0x42, 0x0A])
        transport.send("fine\n")
        #expect(try await second.lines.map(\.text) == ["fine"])
        #expect(raw.value == 2)
        await device.close()
    }

    /// An observer that asked for received bytes gets each read as `received` before
    /// the lines it completed; one that did not never sees them.
    @Test func receivedBytesComeBeforeTheirLinesOnlyForObserversThatAsked() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        let withBytes = device.events(.lossless, includesBytes: true)
        let plain = device.events(.lossless)
        await device.start()
        let lineTexts = (0..<50).map { "!N \($0)\n" }
        let text = lineTexts.joined()
        // Where each line ends in the stream.
        let ends = lineTexts.indices.map { lineTexts[...$0].joined().utf8.count }
        transport.send(text)
        var received: [UInt8] = []
        var lines = 0
        for await event in withBytes {
            switch event.kind {
            case .received(let bytes):
                received += bytes
            case .session(.notification(let line)):
                #expect(received.count >= ends[lines], "line \(line.text) came before its bytes")
                lines += 1
            default:
                break
            }
            if lines == 50 { break }
        }
        #expect(received == Array(text.utf8))
        var plainLines = 0
        for await event in plain {
            if case .received = event.kind { Issue.record("received bytes for an observer that did not ask") }
            if case .session(.notification) = event.kind { plainLines += 1 }
            if plainLines == 50 { break }
        }
        await device.close()
    }

    /// A lossy observer with received bytes counts them as missed like any event: what
    /// it got plus what it missed is everything a lossless one with bytes saw.
    @Test func aLossyObserverCountsMissedReceivedBytes() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        let lossy = device.events(.lossy(bufferLimit: 4), includesBytes: true)
        let lossless = device.events(.lossless, includesBytes: true)
        await device.start()
        for index in 0..<100 {
            transport.send("!N \(index)\n")
        }
        var all = 0
        var lines = 0
        for await event in lossless {
            all += 1
            if case .session(.notification) = event.kind { lines += 1 }
            if lines == 100 { break }
        }
        await device.close()
        var delivered = 0
        var missed = 0
        for await event in lossy {
            if case .missed(let count) = event.kind { missed += count } else { delivered += 1 }
        }
        #expect(missed > 0)
        #expect(delivered + missed == all)
    }

    /// 10 bytes with a 5 ms character delay go out one per write, each at least 5 ms
    /// after the one before: (10 − 1) × 5 ms in all, kept by the loop's deadline.
    @Test func aCharacterDelayWritesOneByteAtATime() async throws {
        let transport = try SocketTransport()
        let device = try device(transport, pacing: Pacing(characterDelay: .milliseconds(5)))
        await device.start()
        device.write(Array("ABCDEFGHIJ".utf8))
        #expect(await transport.received(count: 10) == "ABCDEFGHIJ")
        let transmits = transport.transmits.withLock { $0 }
        #expect(transmits.map(\.count) == Array(repeating: 1, count: 10))
        for (earlier, later) in zip(transmits, transmits.dropFirst()) {
            #expect(later.at - earlier.at >= .milliseconds(5))
        }
        #expect(transmits.last!.at - transmits.first!.at >= .milliseconds(45))
        await device.close()
    }

    /// A command delay writes each command whole, then pauses before the next.
    @Test func aCommandDelayPausesAfterEachCommand() async throws {
        let transport = try SocketTransport()
        let device = try device(transport, pacing: Pacing(commandDelay: .milliseconds(20)))
        await device.start()
        device.write(Array("AB".utf8))
        device.write(Array("CD".utf8))
        #expect(await transport.received(count: 4) == "ABCD")
        let transmits = transport.transmits.withLock { $0 }
        #expect(transmits.map(\.count) == [2, 2])
        #expect(transmits[1].at - transmits[0].at >= .milliseconds(20))
        await device.close()
    }

    /// An immediate write is not paced: it goes out between the paced bytes at once.
    /// Written once the first paced byte is out, so the order does not depend on when
    /// the loop's thread runs (with 200 ms and the writes given together, a loaded
    /// machine's loop took both in one turn and wrote 03 03 A B C); the 5 s delay is
    /// never waited out: the device closes after the third byte.
    @Test func anImmediateWriteIgnoresPacing() async throws {
        let transport = try SocketTransport()
        let device = try device(transport, pacing: Pacing(characterDelay: .seconds(5)))
        await device.start()
        device.write(Array("ABC".utf8))
        #expect(await transport.receivedBytes(count: 1) == [0x41])
        device.writeNow([0x03, 0x03])
        #expect(await transport.receivedBytes(count: 2) == [0x03, 0x03])
        await device.close()
    }

    /// A close asked for while paced bytes wait drops them rather than pacing them out:
    /// ten bytes at 2 s a byte once held Ctrl-C, SIGTERM and `connect`'s quit for 18 s.
    @Test func aCloseDropsPacedOutputInsteadOfWaitingForIt() async throws {
        let transport = try SocketTransport()
        let device = try device(transport, pacing: Pacing(characterDelay: .seconds(2)))
        await device.start()
        device.write(Array("ABCDEFGHIJ".utf8))
        #expect(await transport.received(count: 1) == "A")
        let closing = ContinuousClock.now
        await device.close(reason: "interrupted")
        #expect(ContinuousClock.now - closing < .seconds(10))
        #expect(transport.transmits.withLock { $0 }.map(\.count).reduce(0, +) < 10)
    }
}
