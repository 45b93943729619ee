import FoundationEssentials
import Glibc
import TetherPoll
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
    /// raw write) so that ``Pacing`` can pause between characters and after each chunk,
    /// and each chunk's write has its own deadline (``WriteDeadline``).
    struct Output {
        /// One command, follow-up command or raw write in ``bytes``.
        struct Chunk {
            /// Numbers chunks for the life of the output, so a batch can find its own.
            var serial: Int
            /// Where it begins and ends, as offsets into ``bytes``.
            var start: Int
            var end: Int
            /// The request whose bytes these are (from the `sent` event after the write).
            var owner: (id: RequestID, command: String, timeout: Duration?)?
            /// How long its write may take and when it is given up: set once it is the
            /// first chunk not written whole.
            var budget = Duration.zero
            var deadline: ContinuousClock.Instant?
            /// When its last byte reaches the device at the earliest: its start plus its
            /// bytes' time on the wire.
            var reachesDeviceAt: ContinuousClock.Instant?
            /// Events that wait for its first byte to leave: its `sent` and what came
            /// after it in the same batch.
            var held: [DeviceEvent] = []
            /// The session holds its owner's reply deadline until it is written whole.
            var holdsReplyDeadline = false
        }

        var bytes: [UInt8] = []
        var written = 0
        /// Each chunk not yet written whole, in order.
        var chunks: [Chunk] = []
        private var nextSerial = 0
        /// Bytes before this offset are immediate writes (``Device/writeNow(_:)``): they
        /// go out first, without pacing.
        var immediateEnd = 0
        /// When immediate bytes not yet written are given up.
        var immediateDeadline: (budget: Duration, at: ContinuousClock.Instant)?
        /// Pacing: the next byte may not be written before this (kept after the output
        /// empties, so the command after a paced one waits too).
        var nextWriteAt: ContinuousClock.Instant?
        var isPending: Bool { written < bytes.count }

        /// When the write under way is given up: the immediate bytes' or the first
        /// chunk's deadline, once it has started.
        var deadline: ContinuousClock.Instant? {
            guard isPending else { return nil }
            if written < immediateEnd { return immediateDeadline?.at }
            return chunks.isEmpty ? nil : chunks[0].deadline
        }

        /// Adds a chunk after the rest and returns its serial number.
        @discardableResult
        mutating func append(_ chunk: [UInt8]) -> Int {
            nextSerial += 1
            chunks.append(Chunk(serial: nextSerial, start: bytes.count, end: bytes.count + chunk.count))
            bytes += chunk
            return nextSerial
        }

        /// Whether some byte of chunk `serial` has left (or all of it: it is gone).
        func hasBegun(_ serial: Int) -> Bool {
            guard let index = chunks.firstIndex(where: { $0.serial == serial }) else { return true }
            return written > chunks[index].start
        }

        /// Puts `chunk` ahead of every byte not yet written (after earlier immediate ones).
        mutating func insertImmediate(_ chunk: [UInt8]) {
            let at = max(immediateEnd, written)
            bytes.insert(contentsOf: chunk, at: at)
            for index in chunks.indices {
                if chunks[index].start >= at { chunks[index].start += chunk.count }
                if chunks[index].end > at { chunks[index].end += chunk.count }
            }
            immediateEnd = at + chunk.count
        }

        /// Starts the deadline of the write now under way, if it has none yet: the
        /// budget `budget(count, timeout)` gives for its bytes from `now`.
        mutating func startDeadline(
            now: ContinuousClock.Instant, budget: (_ count: Int, _ timeout: Duration?) -> Duration,
            wireTime: (_ count: Int) -> Duration
        ) {
            guard isPending else { return }
            if written < immediateEnd {
                if immediateDeadline == nil {
                    let allowed = budget(immediateEnd - written, nil)
                    immediateDeadline = (allowed, now + allowed)
                }
            } else if !chunks.isEmpty, chunks[0].deadline == nil {
                chunks[0].budget = budget(chunks[0].end - chunks[0].start, chunks[0].owner?.timeout)
                chunks[0].deadline = now + chunks[0].budget
                chunks[0].reachesDeviceAt = now + wireTime(chunks[0].end - chunks[0].start)
            }
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
            if pacing.commandDelay > .zero, let end = chunks.first(where: { $0.end > written })?.end {
                return end - written
            }
            return bytes.count - written
        }

        /// Notes that `count` bytes were written at `now` and sets when the next may go.
        ///
        /// - Returns: the chunks now written whole.
        mutating func advance(by count: Int, under pacing: Pacing, now: ContinuousClock.Instant) -> [Chunk] {
            let wasImmediate = written < immediateEnd
            written += count
            if written >= immediateEnd { immediateDeadline = nil }
            let endsChunk = !chunks.isEmpty && chunks[0].end == written
            var completed: [Chunk] = []
            while !chunks.isEmpty, chunks[0].end <= written { completed.append(chunks.removeFirst()) }
            guard !wasImmediate, pacing.isPaced else { return completed }
            let delay = endsChunk ? max(pacing.characterDelay, pacing.commandDelay) : pacing.characterDelay
            if delay > .zero { nextWriteAt = now + delay }
            return completed
        }

        /// Takes the held events of the first chunk, once some of its bytes have left.
        mutating func takeBegunEvents() -> [DeviceEvent] {
            guard !chunks.isEmpty, written > chunks[0].start, !chunks[0].held.isEmpty else { return [] }
            defer { chunks[0].held = [] }
            return chunks[0].held
        }

        /// Forgets what was written; keeps ``nextWriteAt`` and the chunk numbering.
        mutating func clear() {
            self = Output(nextSerial: nextSerial, nextWriteAt: nextWriteAt)
        }
    }

    var phase = Phase.created
    var isClosing = false
    /// Why the close was asked for (``Device/close(reason:)``), when a reason was given.
    var closeReason: String?
    var transport: (any SerialTransport)?
    var session: Session
    var waiters: [RequestID: CheckedContinuation<Result<Reply, RequestFailure>, Never>] = [:]
    /// Waiters whose requests ended, with their outcomes: resumed once the lock is
    /// released (``DeviceLoop/update(_:)``), since a resumed task may at once need it.
    var resumptions: [Resumption] = []
    /// A waiter and its request's outcome.
    typealias Resumption = (
        waiter: CheckedContinuation<Result<Reply, RequestFailure>, Never>, outcome: Result<Reply, RequestFailure>
    )
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
    /// The line sequences to run, with the deadline of the next step (``Device/run(_:)``).
    var lineSchedule = LineSchedule()
    var startWaiters: [CheckedContinuation<Void, Never>] = []
    var closeWaiters: [CheckedContinuation<Void, Never>] = []

    /// How long a write may take before it is given up.
    let writeDeadline: WriteDeadline
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
        if let deadline = lineSchedule.nextDeadline, deadline < sleepsUntil { return true }
        return false
    }

    /// What a change under the lock leaves for after it: whether the loop, asleep, must
    /// be woken to see it (``needsWake``), and the callers to resume (``resumptions``,
    /// taken). A mutating method, so the state is not copied to read it.
    mutating func takeFollowUps() -> (wakesLoop: Bool, resumptions: [Resumption]) {
        defer { resumptions.removeAll() }
        return (needsWake, resumptions)
    }

    /// Before the loop's `poll`: what to poll the port for and until when — `nil` once
    /// the device closes or has no port. Notes whether the port is read (a lossless
    /// observer may hold it back), and that the loop sleeps until then.
    mutating func planPoll(
        now: ContinuousClock.Instant, idleHorizon: Duration
    ) -> (transport: any SerialTransport, events: Int16, timeout: Int32)? {
        guard !isClosing, let transport else { return nil }
        var events: Int16 = 0
        let isReading = !isHeldBack()
        if isReading { events |= Int16(POLLIN) }
        session.noteReading(isReading, now: now)
        // Output that pacing holds back waits for its time, not for `POLLOUT`.
        if output.isPending && !output.waitsForPacing(now: now) { events |= Int16(POLLOUT) }
        var wakeAt = now + idleHorizon
        if let deadline = session.nextDeadline { wakeAt = min(wakeAt, deadline) }
        if let deadline = output.deadline { wakeAt = min(wakeAt, deadline) }
        if let writeAt = nextWriteAt { wakeAt = min(wakeAt, writeAt) }
        if let deadline = transfer?.machine.nextDeadline { wakeAt = min(wakeAt, deadline) }
        if let deadline = lineSchedule.nextDeadline { wakeAt = min(wakeAt, deadline) }
        sleepsUntil = wakeAt
        sleepsWithoutOutput = !output.isPending
        return (transport, events, (wakeAt - now).pollTimeout)
    }

    /// Hands `bytes`, read from the port, to the running transfer, which owns the byte
    /// stream (the session sees what follows it), or else to the session, and performs
    /// what it does with them.
    mutating func receive(_ bytes: [UInt8], now: ContinuousClock.Instant) {
        if transfer != nil { return performTransfer({ $0.receive(bytes, now: now) }, now: now) }
        perform(session.receive(bytes, now: now), now: now, received: bytes)
    }

    /// After the loop's `poll` and read: writes what the port now takes (`isWritable`,
    /// or pacing's time has come), gives up a write past its deadline, and performs what
    /// the session's and a transfer's deadlines that have passed bring.
    mutating func endTurn(isWritable: Bool, now: ContinuousClock.Instant) {
        if isWritable || nextWriteAt.map({ $0 <= now }) == true { flush(now: now) }
        expireOutput(now: now)
        if let deadline = session.nextDeadline, deadline <= now {
            perform(session.expire(now: now), now: now)
        }
        if let deadline = transfer?.machine.nextDeadline, deadline <= now {
            performTransfer({ $0.expire(now: now) }, now: now)
        }
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
        session.noteWrite(bytes)
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
        // One time stamp for what one call observed (e.g. every line of one read).
        let time = Date()
        // The writes first: each is the chunk of the request whose `sent` follows it.
        var sentChunks: [Int: Int] = [:]
        var appended: Int?
        for (position, action) in actions.enumerated() {
            switch action {
            case .write(let bytes):
                appended = output.append(bytes)
            case .emit(.sent(let id, let command, _, _)):
                if let serial = appended, let index = output.chunks.firstIndex(where: { $0.serial == serial }) {
                    output.chunks[index].owner = (id, command, session.timeout(ofInFlight: id))
                    sentChunks[position] = serial
                }
                appended = nil
            case .emit:
                appended = nil
            }
        }
        if !sentChunks.isEmpty || appended != nil { flush(now: now) }
        // A `sent` whose bytes have not begun to leave waits for them, with what follows.
        var events: [DeviceEvent] = []
        events.reserveCapacity(actions.count)
        var holder: Int?
        for (position, action) in actions.enumerated() {
            guard case .emit(let event) = action else { continue }
            if let serial = sentChunks[position] { holder = output.hasBegun(serial) ? nil : serial }
            let deviceEvent = DeviceEvent(time: time, kind: .session(event))
            if let holder, let index = output.chunks.firstIndex(where: { $0.serial == holder }) {
                output.chunks[index].held.append(deviceEvent)
            } else {
                resolveWaiter(for: event)
                events.append(deviceEvent)
            }
        }
        if publishesBytes, let received {
            publish(events, withBytes: [DeviceEvent(time: time, kind: .received(received))] + events)
        } else {
            publish(events)
        }
    }

    /// Publishes session events that waited for their command's first byte, and
    /// resumes the callers they end.
    private mutating func publishHeld(_ events: [DeviceEvent]) {
        guard !events.isEmpty else { return }
        for event in events {
            if case .session(let sessionEvent) = event.kind { resolveWaiter(for: sessionEvent) }
        }
        publish(events)
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
            if let waiter = waiters.removeValue(forKey: id) { resumptions.append((waiter, .success(reply))) }
        case .failed(let id, _, let failure):
            if let waiter = waiters.removeValue(forKey: id) { resumptions.append((waiter, .failure(failure))) }
        case .sent, .notification, .lateReply, .partialReply, .pendingText, .data, .commandMode, .settling, .held:
            break
        }
    }

    /// Writes what the port accepts now of the pending output. A write that cannot
    /// complete waits for `POLLOUT` (the loop polls for it) until its deadline
    /// (``WriteDeadline``, ``expireOutput(now:)``); meanwhile the reply deadline of its
    /// request is held, and its `sent` event waits for its first byte. A device gone
    /// during the write is left to the loop, which sees the hang-up. Pacing
    /// (``Pacing``) writes one byte or one chunk at a time and leaves the rest for the
    /// loop, which polls until ``Output/nextWriteAt``.
    mutating func flush(now: ContinuousClock.Instant) {
        guard output.isPending, let transport else {
            output.clear()
            return
        }
        let baudRate = transport.settingsReport.actual?.baudRate
        let budget = { [writeDeadline, pacing] (count: Int, timeout: Duration?) in
            writeDeadline.budget(ofBytes: count, baudRate: baudRate, pacing: pacing, timeout: timeout)
        }
        let wireTime = { (count: Int) in WriteDeadline.wireTime(ofBytes: count, baudRate: baudRate) }
        do throws(SerialError) {
            while output.isPending && !output.waitsForPacing(now: now) {
                output.startDeadline(now: now, budget: budget, wireTime: wireTime)
                let written = output.written
                let asked = output.writableCount(under: pacing)
                let count = try output.bytes.withUnsafeBytes { bytes in
                    Result { () throws(SerialError) in
                        try transport.transmit(UnsafeRawBufferPointer(rebasing: bytes[written..<written + asked]))
                    }
                }.get()
                if count > 0 { progress(by: count, now: now) }
                if count < asked { break }
            }
        } catch {
            publish(.error("write failed: \(error)"))
            abandonOutput(now: now, cause: "before the write failed (\(error))")
            return
        }
        if !output.isPending {
            output.clear()
            return
        }
        output.startDeadline(now: now, budget: budget, wireTime: wireTime)
        for index in output.chunks.indices where !output.chunks[index].holdsReplyDeadline {
            guard let owner = output.chunks[index].owner else { continue }
            output.chunks[index].holdsReplyDeadline = true
            session.awaitWrite(of: owner.id)
        }
    }

    /// Notes `count` bytes written: publishes what waited for them and starts the reply
    /// deadline of a request whose command is now written whole.
    private mutating func progress(by count: Int, now: ContinuousClock.Instant) {
        // The pause before the next paced byte counts from when this write returned, not
        // from when the flush began: otherwise two bytes could leave closer than the delay.
        for chunk in output.advance(by: count, under: pacing, now: pacing.isPaced ? .now : now) {
            publishHeld(chunk.held)
            if let owner = chunk.owner {
                session.writeCompleted(of: owner.id, reachedAt: max(now, chunk.reachesDeviceAt ?? now))
            }
        }
        publishHeld(output.takeBegunEvents())
    }

    /// When the loop must next write: pending output held back by pacing.
    var nextWriteAt: ContinuousClock.Instant? {
        guard output.isPending, output.written >= output.immediateEnd else { return nil }
        return output.nextWriteAt
    }

    /// Gives up a write that did not complete by its deadline (``WriteDeadline``).
    mutating func expireOutput(now: ContinuousClock.Instant) {
        guard let deadline = output.deadline, deadline <= now else { return }
        let budget =
            output.written < output.immediateEnd ? output.immediateDeadline?.budget : output.chunks.first?.budget
        abandonOutput(
            now: now,
            cause:
                "in \((budget ?? .zero).milliseconds) ms (output held by flow control, or the device stopped reading)")
    }

    /// Drops the pending output: the request whose command was under way fails with
    /// ``RequestFailure/notAllSent(reason:)`` (some of its bytes left) or
    /// ``RequestFailure/notSent(reason:)`` (none did), each reason starting `the port
    /// took n of m bytes` and ending with `cause`; the requests whose bytes came after
    /// it fail as not sent; immediate bytes given up are an `error` event. While the
    /// device closes the session is left alone: its end fails what is pending.
    private mutating func abandonOutput(now: ContinuousClock.Instant, cause: String) {
        let abandoned = output
        output.clear()
        if abandoned.written < abandoned.immediateEnd {
            publish(
                .error(
                    "write failed: the port took \(abandoned.written) of \(abandoned.immediateEnd) bytes \(cause)"))
        }
        guard !isClosing else { return }
        var isFirst = abandoned.written >= abandoned.immediateEnd
        for chunk in abandoned.chunks {
            defer { isFirst = false }
            guard let owner = chunk.owner else { continue }
            let taken = max(0, min(abandoned.written, chunk.end) - chunk.start)
            let failure: RequestFailure
            if isFirst {
                let reason = "the port took \(taken) of \(chunk.end - chunk.start) bytes \(cause)"
                failure = taken > 0 ? .notAllSent(reason: reason) : .notSent(reason: reason)
            } else {
                failure = .notSent(reason: "the write before it was given up")
            }
            let actions = session.writeFailed(
                of: owner.id, command: owner.command, failure: failure, isPartlyWritten: taken > 0, now: now)
            perform(actions, now: now)
        }
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
