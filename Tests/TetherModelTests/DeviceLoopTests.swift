import Dispatch
import Glibc
import Synchronization
import Testing
import TetherModel
import TetherSerial

/// The port loop behind ``Device``: lossless and lossy observers, cancellation, and
/// requests made before `start()`, against a device played on a socket pair.
@Suite struct DeviceLoopTests {
    private func device(_ transport: SocketTransport, writeDeadline: WriteDeadline = WriteDeadline()) throws -> Device {
        try Device(
            transport: transport, dialect: LineDialect(notificationPattern: try LinePattern("^!")),
            settings: "115200 8N1", writeDeadline: writeDeadline)
    }

    /// 200 000 notifications (2.4 MB, far more than the socket buffer holds) to an
    /// observer with room for 64 events that stops for 500 ms after the first: the
    /// device's writer is held back while the observer sleeps (the loop stops
    /// reading), and the observer then gets every line once, in order, no `missed`.
    @Test func aLosslessObserverHoldsTheDeviceBackAndMissesNothing() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        let events = device.events(.lossless(bufferLimit: 64))
        await device.start()
        let total = 200_000
        let writerDone = Mutex(false)
        DispatchQueue.global().async {
            var text = ""
            for index in 0..<total {
                text += "!N \(index)\n"
                if text.utf8.count > 60_000 {
                    transport.send(text)
                    text = ""
                }
            }
            transport.send(text)
            writerDone.withLock { $0 = true }
        }
        var expected = 0
        var missed = 0
        var writerFinishedDuringPause = true
        for await event in events {
            switch event.kind {
            case .session(.notification(let line)):
                #expect(line.text == "!N \(expected)")
                if expected == 0 {
                    try await Task.sleep(for: .milliseconds(500))
                    writerFinishedDuringPause = writerDone.withLock { $0 }
                }
                expected += 1
            case .missed(let count):
                missed += count
            default:
                break
            }
            if expected == total { break }
        }
        #expect(expected == total)
        #expect(missed == 0)
        #expect(!writerFinishedDuringPause, "the device could send everything while the observer slept")
        await device.close()
    }

    /// A lossy observer that does not keep up is told how many events it missed —
    /// also when the device ends before it caught up.
    @Test func aLossyObserverIsToldWhatItMissedAlsoAtTheEnd() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        let lossy = device.events(.lossy(bufferLimit: 8))
        let lossless = device.events(.lossless)
        await device.start()
        transport.send((0..<100).map { "!N \($0)\n" }.joined())
        var seen = 0
        for await event in lossless {
            if case .session(.notification) = event.kind { seen += 1 }
            if seen == 100 { break }
        }
        await device.close()
        var delivered = 0
        var missed = 0
        for await event in lossy {
            if case .missed(let count) = event.kind { missed += count } else { delivered += 1 }
        }
        // `connected` and 100 notifications: 101 events.
        #expect(delivered == 8)
        #expect(missed == 93)
    }

    /// Cancelling the task of a query that was sent ends it at once with `cancelled`;
    /// its answer, arriving later, is a late reply, and the next query gets its own.
    @Test func aCancelledQueryReturnsAtOnceAndTheNextGetsItsOwnReply() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        let events = device.events(.lossless)
        await device.start()
        let slow = Task { try await device.query("SLOW", timeout: nil) }
        #expect(await transport.received(count: 5) == "SLOW\n")
        let cancelledAt = ContinuousClock.now
        slow.cancel()
        await #expect(throws: RequestFailure.cancelled) { try await slow.value }
        // Not cancelled, the query would wait without a deadline; 30 s holds under load.
        #expect(ContinuousClock.now - cancelledAt < .seconds(30))
        transport.send("slow answer\n")
        let fast = Task { try await device.query("FAST", timeout: .seconds(120)) }
        #expect(await transport.received(count: 5) == "FAST\n")
        transport.send("fast answer\n")
        let reply = try await fast.value
        #expect(reply.lines.map(\.text) == ["fast answer"])
        await device.close()
        var lateReplies: [String] = []
        for await event in events {
            if case .session(.lateReply(let command, let reply)) = event.kind {
                lateReplies.append("\(command): \(reply.lines.map(\.text))")
            }
        }
        #expect(lateReplies == ["SLOW: [\"slow answer\"]"])
    }

    /// A query cancelled as its task starts ends with `cancelled`. A cancellation that
    /// came while the query was being queued (after the check for it, before the
    /// query's identity was kept for it) was lost, and a query without a timeout then
    /// waited for ever: one run in five of examples/library-client hung so. The
    /// cancellations come at 0 to 49 yields after each query's start, so some land
    /// while it is queued; 120 s timeouts: a lost one is a `timedOut` failure, not a hang.
    @Test func aQueryCancelledAsItIsQueuedEndsCancelled() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        await device.start()
        for attempt in 0..<500 {
            let query = Task.detached { try await device.query("MEAS?", timeout: .seconds(120)) }
            for _ in 0..<attempt % 50 { await Task.yield() }
            query.cancel()
            await #expect(throws: RequestFailure.cancelled) { try await query.value }
        }
        await device.close()
    }

    /// A query cancelled while it waits behind another never reaches the device.
    @Test func aCancelledQueuedQueryIsNeverSent() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        await device.start()
        let first = Task { try await device.query("FIRST", timeout: .seconds(120)) }
        #expect(await transport.received(count: 6) == "FIRST\n")
        let second = Task { try await device.query("SECOND", timeout: .seconds(120)) }
        try await Task.sleep(for: .milliseconds(100))
        second.cancel()
        await #expect(throws: RequestFailure.cancelled) { try await second.value }
        transport.send("one\n")
        #expect(try await first.value.lines.map(\.text) == ["one"])
        let third = Task { try await device.query("THIRD", timeout: .seconds(120)) }
        #expect(await transport.received(count: 6) == "THIRD\n", "SECOND was written")
        transport.send("three\n")
        #expect(try await third.value.lines.map(\.text) == ["three"])
        await device.close()
    }

    /// Raw writes queued behind a query in flight (keys typed, a file sent in
    /// `connect`, then Ctrl-T q) are written when the device is closed, in order,
    /// before the port closes: `abc` and `def` after `SLOW\n`.
    @Test func aCloseWritesTheQueuedRawWritesFirst() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        await device.start()
        let slow = Task { try await device.query("SLOW", timeout: nil) }
        #expect(await transport.received(count: 5) == "SLOW\n")
        _ = device.write(Array("abc".utf8))
        _ = device.write(Array("def".utf8))
        await device.close()
        await #expect(throws: RequestFailure.stopped(reason: "closed")) { try await slow.value }
        // The port is closed by now: the read ends at its end of file, whatever came.
        #expect(await transport.received(count: 7) == "abcdef")
    }

    /// Requests made before `start()` wait for it: `connected` comes first, and input
    /// waiting at open is a notification, not their reply.
    @Test func requestsBeforeStartWaitForIt() async throws {
        let transport = try SocketTransport()
        transport.send("banner\n")
        let device = try device(transport)
        let events = device.events(.lossless)
        let early = device.send("EARLY", timeout: .seconds(120))
        await device.start()
        #expect(await transport.received(count: 6) == "EARLY\n")
        transport.send("answer\n")
        var kinds: [String] = []
        for await event in events {
            switch event.kind {
            case .connected: kinds.append("connected")
            case .session(.notification(let line)): kinds.append("notification \(line.text)")
            case .session(.sent(early, _, _, _)): kinds.append("sent")
            case .session(.replied(early, _, let reply, _)): kinds.append("replied \(reply.lines.map(\.text))")
            case .session(.settling): continue  // the banner showed that the device speaks unasked
            case .session(.held(let reason, _, "EARLY")): kinds.append("held \(reason)")
            default: kinds.append("\(event.kind)")
            }
            if kinds.count == 5 { break }
        }
        // A `line` device told nothing is listened to before the first command (`held listen`).
        #expect(kinds == ["connected", "notification banner", "held listen", "sent", "replied [\"answer\"]"])
        await device.close()
    }

    /// The device going away fails the request in flight and ends every observer.
    @Test func aHangUpFailsTheRequestAndEndsTheEvents() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        let events = device.events(.lossless)
        await device.start()
        let pending = Task { try await device.query("X", timeout: nil) }
        #expect(await transport.received(count: 2) == "X\n")
        transport.closePeer()
        await #expect(throws: RequestFailure.disconnected(reason: "device hung up")) { try await pending.value }
        var last: DeviceEvent.Kind?
        for await event in events { last = event.kind }
        #expect(last == .disconnected(reason: "device hung up"))
        await #expect(throws: RequestFailure.notSent(reason: "device hung up")) {
            try await device.query("Y", timeout: .seconds(1))
        }
        await device.close()
    }
}
