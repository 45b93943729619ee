import FoundationEssentials
import TetherSerial

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

    /// Bytes handed to the port but not yet accepted by it.
    struct Output {
        var bytes: [UInt8] = []
        var written = 0
        /// When a write that makes no progress gives up.
        var deadline: ContinuousClock.Instant?
        var isPending: Bool { written < bytes.count }
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
    /// The loop is in `poll`, to wake on its own at this time (`nil`: it is awake and
    /// will look at the state again before it sleeps).
    var sleepsUntil: ContinuousClock.Instant?
    /// The loop is in `poll` without `POLLOUT`.
    var sleepsWithoutOutput = false
    /// Work to do with the port on the loop thread (``Device/withLineControl(_:)``).
    var controls: [@Sendable ((any SerialTransport)?) -> Void] = []
    /// A baud rate set during the session, applied again after a reconnect.
    var baudRate: Int?
    var startWaiters: [CheckedContinuation<Void, Never>] = []
    var closeWaiters: [CheckedContinuation<Void, Never>] = []

    /// How long one write may make no progress, in ms.
    let writeTimeout: Int

    /// Whether the loop, asleep in `poll`, must be woken to see a change: a deadline
    /// earlier than it wakes, or output waiting for `POLLOUT`.
    var needsWake: Bool {
        guard let sleepsUntil else { return false }
        if output.isPending && sleepsWithoutOutput { return true }
        if let deadline = session.nextDeadline, deadline < sleepsUntil { return true }
        if let deadline = output.deadline, deadline < sleepsUntil { return true }
        return false
    }

    /// Whether a lossless observer is full, so the loop must not read.
    func isHeldBack() -> Bool {
        subscribers.contains { $0.holdsBack() }
    }

    // MARK: - Requests

    /// Queues `command` and performs what the session does with it (write, `sent`).
    ///
    /// - Parameter waiter: resumed with the outcome, if given.
    /// - Returns: the request's identity.
    mutating func enqueue(
        _ command: String, timeout: Duration?,
        waiter: CheckedContinuation<Result<Reply, RequestFailure>, Never>?, answersShownPrompt: Bool = false
    ) -> RequestID {
        let now = ContinuousClock.now
        if answersShownPrompt { perform(session.consumeShownPendingText(now: now), now: now) }
        // Nothing more is sent once a close is asked for (``Device/stop(reason:)``).
        let closingReason = isClosing ? closeReason ?? "closed" : nil
        let (id, actions) = session.enqueue(command, timeout: timeout, closingReason: closingReason, now: now)
        if let waiter { waiters[id] = waiter }
        perform(actions, now: now)
        return id
    }

    // MARK: - Actions and events

    /// Performs a session's actions in order: writes go to the port (as much as it
    /// takes now), events to the observers and to the waiting callers.
    mutating func perform(_ actions: [SessionAction], now: ContinuousClock.Instant) {
        guard !actions.isEmpty else { return }
        var events: [DeviceEvent] = []
        events.reserveCapacity(actions.count)
        var wrote = false
        // One time stamp for what one call observed (e.g. every line of one read).
        let time = Date()
        for action in actions {
            switch action {
            case .write(let bytes):
                output.bytes += bytes
                wrote = true
            case .emit(let event):
                resolveWaiter(for: event)
                events.append(DeviceEvent(time: time, kind: .session(event)))
            }
        }
        publish(events)
        if wrote { flush(now: now) }
    }

    /// Publishes one event.
    mutating func publish(_ kind: DeviceEvent.Kind) {
        publish([DeviceEvent(kind: kind)])
    }

    /// Hands `events` to every observer, forgetting those that have gone.
    mutating func publish(_ events: [DeviceEvent]) {
        guard !events.isEmpty else { return }
        subscribers.removeAll { !$0.deliver(events) }
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
    mutating func flush(now: ContinuousClock.Instant) {
        guard output.isPending, let transport else {
            output = Output()
            return
        }
        var progressed = false
        do throws(SerialError) {
            while output.isPending {
                let written = output.written
                let count = try output.bytes.withUnsafeBytes { bytes in
                    Result { () throws(SerialError) in
                        try transport.transmit(UnsafeRawBufferPointer(rebasing: bytes[written...]))
                    }
                }.get()
                if count == 0 { break }
                output.written += count
                progressed = true
            }
        } catch {
            publish(.error("write failed: \(error)"))
            output = Output()
            return
        }
        if !output.isPending {
            output = Output()
        } else if progressed || output.deadline == nil {
            output.deadline = now + .milliseconds(writeTimeout)
        }
    }

    /// Gives up a write that made no progress until its deadline.
    mutating func expireOutput(now: ContinuousClock.Instant) {
        guard let deadline = output.deadline, deadline <= now, output.isPending else { return }
        let message =
            "write failed: the port took \(output.written) of \(output.bytes.count) bytes in \(writeTimeout) ms "
            + "(output held by flow control, or the device stopped reading)"
        output = Output()
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
        output = Output()
        defer { transport = nil }
        return (transport, closers)
    }
}
