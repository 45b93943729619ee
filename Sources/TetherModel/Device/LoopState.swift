import FoundationEssentials
import TetherSerial
import TetherTransfer

/// Everything a device's port loop shares with the threads and tasks that call the
/// ``Device``: kept under one lock (``DeviceLoop``), changed only by the methods here.
///
/// Callers enqueue requests and write their bytes directly (``enqueue(_:timeout:waiter:)``
/// performs the session's actions: a non-blocking write and events), so a query costs
/// no hand-over to the loop unless the loop must change what it waits for
/// (``needsWake``).
struct LoopState {
    /// Where the connection stands.
    enum Phase {
        /// Created; ``Device/start()`` not called yet.
        case created
        /// Open; taking in the input that was waiting, requests held.
        case catchingUp
        /// Open and serving requests.
        case connected
        /// Disconnected; reopening the port (since then).
        case away(since: ContinuousClock.Instant)
        /// Over: closed, or disconnected for good.
        case ended
    }

    /// Bytes handed to the port but not yet accepted by it, in chunks (a command, a
    /// raw write) so that ``Pacing`` can pause between characters and after each chunk.
    struct Output {
        var bytes: [UInt8] = []
        var written = 0
        /// Where each chunk not yet written whole ends, as offsets into ``bytes``, in order.
        var chunkEnds: [Int] = []
        /// Bytes before this offset are immediate writes (``Device/writeNow(_:)``): they
        /// go out first, without pacing.
        var immediateEnd = 0
        /// When a write that makes no progress gives up.
        var deadline: ContinuousClock.Instant?
        /// Pacing: the next byte may not be written before this (kept after the output
        /// empties, so the command after a paced one waits too).
        var nextWriteAt: ContinuousClock.Instant?
        var isPending: Bool { written < bytes.count }

        /// Adds a chunk after the rest.
        mutating func append(_ chunk: [UInt8]) {
            bytes += chunk
            chunkEnds.append(bytes.count)
        }

        /// Puts `chunk` ahead of every byte not yet written (after earlier immediate ones).
        mutating func insertImmediate(_ chunk: [UInt8]) {
            let at = max(immediateEnd, written)
            bytes.insert(contentsOf: chunk, at: at)
            for index in chunkEnds.indices where chunkEnds[index] > at { chunkEnds[index] += chunk.count }
            immediateEnd = at + chunk.count
        }

        /// Whether pacing holds the next byte back at `now` (immediate bytes never wait).
        func waitsForPacing(now: ContinuousClock.Instant) -> Bool {
            guard isPending, written >= immediateEnd, let nextWriteAt else { return false }
            return nextWriteAt > now
        }

        /// How many bytes from ``written`` may go out in one write under `pacing`.
        func writableCount(under pacing: Pacing) -> Int {
            if written < immediateEnd { return immediateEnd - written }
            if pacing.characterDelay > .zero { return 1 }
            if pacing.commandDelay > .zero, let end = chunkEnds.first(where: { $0 > written }) { return end - written }
            return bytes.count - written
        }

        /// Notes that `count` bytes were written at `now` and sets when the next may go.
        mutating func advance(by count: Int, under pacing: Pacing, now: ContinuousClock.Instant) {
            let wasImmediate = written < immediateEnd
            written += count
            let endsChunk = chunkEnds.first == written
            while let end = chunkEnds.first, end <= written { chunkEnds.removeFirst() }
            guard !wasImmediate, pacing.isPaced else { return }
            let delay = endsChunk ? max(pacing.characterDelay, pacing.commandDelay) : pacing.characterDelay
            if delay > .zero { nextWriteAt = now + delay }
        }

        /// Forgets what was written; keeps ``nextWriteAt``.
        mutating func clear() {
            self = Output(nextWriteAt: nextWriteAt)
        }
    }

    var phase = Phase.created
    var isClosing = false
    /// Why the close was asked for (``Device/close(reason:)``), when a reason was given.
    var closeReason: String?
    var transport: (any SerialTransport)?
    var session: Session
    var waiters: [RequestID: CheckedContinuation<Result<Reply, RequestFailure>, Never>] = [:]
    var output = Output()
    var subscribers: [EventSubscriber] = []
    /// How many of ``subscribers`` asked for received bytes (``Device/events(_:includesBytes:)``).
    var byteSubscriberCount = 0
    /// The loop is in `poll`, to wake on its own at this time (`nil`: it is awake and
    /// will look at the state again before it sleeps).
    var sleepsUntil: ContinuousClock.Instant?
    /// The loop is in `poll` without `POLLOUT`.
    var sleepsWithoutOutput = false
    /// Work to do with the port on the loop thread (``Device/withLineControl(_:)``).
    var controls: [@Sendable ((any SerialTransport)?) -> Void] = []
    /// The file transfer that owns the byte stream now, if any (``RunningTransfer``).
    var transfer: RunningTransfer?
    /// A baud rate set during the session, applied again after a reconnect.
    var baudRate: Int?
    var startWaiters: [CheckedContinuation<Void, Never>] = []
    var closeWaiters: [CheckedContinuation<Void, Never>] = []

    /// How long one write may make no progress, in ms.
    let writeTimeout: Int
    /// The pauses between characters and after each command.
    let pacing: Pacing

    /// Whether the loop, asleep in `poll`, must be woken to see a change: a deadline
    /// earlier than it wakes, or output waiting for `POLLOUT`.
    var needsWake: Bool {
        guard let sleepsUntil else { return false }
        if output.isPending && sleepsWithoutOutput { return true }
        if output.isPending, let next = output.nextWriteAt, next < sleepsUntil { return true }
        if let deadline = session.nextDeadline, deadline < sleepsUntil { return true }
        if let deadline = output.deadline, deadline < sleepsUntil { return true }
        if let deadline = transfer?.machine.nextDeadline, deadline < sleepsUntil { return true }
        return false
    }

    /// Whether a lossless observer is full, so the loop must not read.
    func isHeldBack() -> Bool {
        subscribers.contains { $0.holdsBack() }
    }

    // MARK: - Requests

    /// Queues the command whose exact bytes are `bytes` and performs what the session
    /// does with it (write, `sent`).
    ///
    /// - Parameters:
    ///   - isRaw: a raw write (``Device/write(_:)``).
    ///   - waiter: resumed with the outcome, if given.
    /// - Returns: the request's identity.
    mutating func enqueue(
        _ bytes: [UInt8], timeout: Duration?, isRaw: Bool = false,
        waiter: CheckedContinuation<Result<Reply, RequestFailure>, Never>?, answersShownPrompt: Bool = false
    ) -> RequestID {
        let now = ContinuousClock.now
        if answersShownPrompt { perform(session.consumeShownPendingText(now: now), now: now) }
        // Nothing more is sent once a close is asked for (``Device/stop(reason:)``).
        let closingReason = isClosing ? closeReason ?? "closed" : nil
        let (id, actions) = session.enqueue(
            bytes: bytes, timeout: timeout, isRaw: isRaw, closingReason: closingReason, now: now)
        if let waiter { waiters[id] = waiter }
        perform(actions, now: now)
        return id
    }

    /// Writes `bytes` ahead of every byte not yet written, now, without pacing
    /// (``Device/writeNow(_:)``), and publishes `wroteNow`. Nothing happens while the
    /// port is away or once a close was asked for.
    mutating func writeNow(_ bytes: [UInt8], now: ContinuousClock.Instant) {
        guard !isClosing, transport != nil, !bytes.isEmpty else { return }
        switch phase {
        case .away, .ended: return
        case .created, .catchingUp, .connected: break
        }
        publish(.wroteNow(bytes))
        output.insertImmediate(bytes)
        flush(now: now)
    }

    // MARK: - Actions and events

    /// Performs a session's actions in order: writes go to the port (as much as it
    /// takes now), events to the observers and to the waiting callers.
    ///
    /// - Parameter received: the bytes read that produced `actions`: observers that
    ///   asked for received bytes get them first, as `received`, in the same batch.
    mutating func perform(_ actions: [SessionAction], now: ContinuousClock.Instant, received: [UInt8]? = nil) {
        let publishesBytes = received != nil && byteSubscriberCount > 0
        guard !actions.isEmpty || publishesBytes else { return }
        var events: [DeviceEvent] = []
        events.reserveCapacity(actions.count)
        var wrote = false
        // One time stamp for what one call observed (e.g. every line of one read).
        let time = Date()
        for action in actions {
            switch action {
            case .write(let bytes):
                output.append(bytes)
                wrote = true
            case .emit(let event):
                resolveWaiter(for: event)
                events.append(DeviceEvent(time: time, kind: .session(event)))
            }
        }
        if publishesBytes, let received {
            publish(events, withBytes: [DeviceEvent(time: time, kind: .received(received))] + events)
        } else {
            publish(events)
        }
        if wrote { flush(now: now) }
    }

    /// Publishes one event.
    mutating func publish(_ kind: DeviceEvent.Kind) {
        publish([DeviceEvent(kind: kind)])
    }

    /// Hands `events` to every observer, forgetting those that have gone.
    mutating func publish(_ events: [DeviceEvent]) {
        publish(events, withBytes: events)
    }

    /// Hands `events` to the observers that did not ask for received bytes and
    /// `withBytes` (the same, a `received` event before them) to those that did.
    private mutating func publish(_ events: [DeviceEvent], withBytes: [DeviceEvent]) {
        var removed = 0
        subscribers.removeAll { subscriber in
            let batch = subscriber.includesBytes ? withBytes : events
            guard !batch.isEmpty, !subscriber.deliver(batch) else { return false }
            if subscriber.includesBytes { removed += 1 }
            return true
        }
        byteSubscriberCount -= removed
    }

    private mutating func resolveWaiter(for event: SessionEvent) {
        switch event {
        case .replied(let id, _, let reply, _):
            waiters.removeValue(forKey: id)?.resume(returning: .success(reply))
        case .failed(let id, _, let failure):
            waiters.removeValue(forKey: id)?.resume(returning: .failure(failure))
        case .sent, .notification, .lateReply, .partialReply, .pendingText:
            break
        }
    }

    /// Writes what the port accepts now of the pending output. A write that cannot
    /// complete waits for `POLLOUT` (the loop polls for it) for up to ``writeTimeout``
    /// ms without progress; then it is given up and an `error` event says so. A
    /// device gone during the write is left to the loop, which sees the hang-up.
    /// Pacing (``Pacing``) writes one byte or one chunk at a time and leaves the rest
    /// for the loop, which polls until ``Output/nextWriteAt``.
    mutating func flush(now: ContinuousClock.Instant) {
        guard output.isPending, let transport else {
            output.clear()
            return
        }
        var progressed = false
        var isBlocked = false
        do throws(SerialError) {
            while output.isPending && !output.waitsForPacing(now: now) {
                let written = output.written
                let asked = output.writableCount(under: pacing)
                let count = try output.bytes.withUnsafeBytes { bytes in
                    Result { () throws(SerialError) in
                        try transport.transmit(UnsafeRawBufferPointer(rebasing: bytes[written..<written + asked]))
                    }
                }.get()
                if count > 0 {
                    output.advance(by: count, under: pacing, now: now)
                    progressed = true
                }
                if count < asked {
                    isBlocked = true
                    break
                }
            }
        } catch {
            publish(.error("write failed: \(error)"))
            output.clear()
            return
        }
        if !output.isPending {
            output.clear()
        } else if !isBlocked {
            output.deadline = nil  // waiting for pacing, not for the port
        } else if progressed || output.deadline == nil {
            output.deadline = now + .milliseconds(writeTimeout)
        }
    }

    /// When the loop must next write: pending output held back by pacing.
    var nextWriteAt: ContinuousClock.Instant? {
        guard output.isPending, output.written >= output.immediateEnd else { return nil }
        return output.nextWriteAt
    }

    /// Gives up a write that made no progress until its deadline.
    mutating func expireOutput(now: ContinuousClock.Instant) {
        guard let deadline = output.deadline, deadline <= now, output.isPending else { return }
        let message =
            "write failed: the port took \(output.written) of \(output.bytes.count) bytes in \(writeTimeout) ms "
            + "(output held by flow control, or the device stopped reading)"
        output.clear()
        publish(.error(message))
    }

    // MARK: - The end

    /// Ends the device: fails what is pending, publishes `disconnected` unless the
    /// close was asked for, ends every observer's sequence, and returns the transport
    /// to close (outside the lock) and the callers of ``Device/close()`` to resume
    /// after that.
    mutating func end(reason: String) -> (
        transport: (any SerialTransport)?, closers: [CheckedContinuation<Void, Never>]
    ) {
        let reason = isClosing ? closeReason ?? "closed" : reason
        let now = ContinuousClock.now
        abandonTransfer(.disconnected(reason: reason))
        perform(session.hangUp(reason: reason, isAskedFor: isClosing, now: now), now: now)
        if !isClosing { publish(.disconnected(reason: reason)) }
        phase = .ended
        for subscriber in subscribers { subscriber.finish() }
        subscribers.removeAll()
        for waiter in startWaiters { waiter.resume() }
        startWaiters.removeAll()
        let closers = closeWaiters
        closeWaiters.removeAll()
        for control in controls { control(nil) }
        controls.removeAll()
        output.clear()
        defer { transport = nil }
        return (transport, closers)
    }
}
