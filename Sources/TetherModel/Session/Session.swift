/// The conversation with one device as a pure state machine: requests in, bytes in,
/// actions out. No I/O and no clock of its own — every call gets `now` — so it can be
/// tested line by line.
///
/// A session is a pipeline of four stages, each a value type with its own state
/// (docs/ARCHITECTURE.md, "The session pipeline"; the rules, stage by stage, in
/// docs/DIALECTS.md, "Rules every dialect shares"):
///
/// | stage | does | state |
/// |---|---|---|
/// | `FramingStage` | bytes → lines, or data in a modem's data mode; the unterminated bytes' clock | `FramingStage/Mode`, `FramingStage/Reading` |
/// | `Classifier` | leading noise, unsolicited lines, learned unasked shapes | `UnaskedLines` |
/// | `Pairing` | which request a line answers; timeouts, late replies, doubt | `Pairing/WriteProgress`, `Pairing/Contest`, `ReplyTempo/Step` |
/// | `Gate` | when the next request may go: every listen, resync, readiness and settling hold | `Gate/Hold` (`Gate/Reason`), `Gate/Settling` |
///
/// One request is in flight at a time; the others wait in order (FIFO). After
/// ``hangUp(reason:isAskedFor:now:)`` every pending and queued request fails and new
/// ones fail at once.
public struct Session: Sendable {
    /// How long the unterminated bytes must stay unchanged to be offered as quiet (a
    /// prompt after other text, ``PromptDialect``): 50 ms.
    public static let partialQuietPeriod = FramingStage.partialQuietPeriod
    /// The quiet time after which the unterminated bytes are reported as pending text
    /// (``SessionEvent/pendingText(_:start:)``): 100 ms, long enough that a device
    /// writing a line in several pieces (a UART FIFO, a USB packet each) is not cut
    /// into pending reports, short enough that a progress dot or a prompt shows at once
    /// to a person.
    public static let pendingTextQuietPeriod = Duration.milliseconds(100)

    /// The dialect in use.
    public let dialect: any Dialect
    var framing: FramingStage
    var classifier: Classifier
    var pairing: Pairing
    var gate: Gate
    var queue: [Request] = []
    private var nextID = 1
    var closedReason: String?
    /// Whether the next request sent is the first after the input waiting at open
    /// (``releaseRequests(endingWaitingText:now:)``).
    var endsWaitingText = false

    /// Creates a session speaking `dialect`.
    ///
    /// - Parameters:
    ///   - dialect: how commands are framed and replies matched.
    ///   - maximumLineLength: the longest line kept whole, in bytes.
    public init(dialect: any Dialect, maximumLineLength: Int = LineFramer.defaultMaximumLineLength) {
        self.dialect = dialect
        framing = FramingStage(maximumLineLength: maximumLineLength, payloadFraming: dialect.payloadFraming)
        classifier = Classifier(dialect: dialect)
        pairing = Pairing(dialect: dialect)
        gate = Gate(settlesFromStart: dialect.repliesAreUnmarked && dialect.listenPeriod != nil)
    }

    /// Whether a request is in flight, queued or its reply is settling.
    var isBusy: Bool { pairing.inFlight != nil || !queue.isEmpty || gate.settlingReply != nil }

    /// When ``expire(now:)`` next has work; `nil` when there is nothing to time.
    /// Read before every `poll` of the port loop, so it builds no array.
    public var nextDeadline: ContinuousClock.Instant? {
        var earliest = pairing.nextDeadline
        func consider(_ instant: ContinuousClock.Instant?) {
            if let instant, earliest.map({ instant < $0 }) ?? true { earliest = instant }
        }
        consider(framing.quietPartialAt(isAwaited: pairing.awaitsPartial))
        consider(framing.pendingTextAt(quiet: Self.pendingTextQuietPeriod))
        consider(framing.indefiniteBlockEndAt)
        consider(framing.heldDataAt)
        if case .data(let dataMode) = framing.mode { queue.forEach { consider(dataMode.deadline(of: $0)) } }
        if pairing.inFlight == nil, !queue.isEmpty && !gate.isHoldingRequests || gate.settlingReply != nil {
            consider(gate.holdEnd(lastByteAt: framing.lastByteAt, hasPartial: !framing.partial.isEmpty))
        }
        return earliest
    }

    /// Queues `command` (its UTF-8 bytes), as ``enqueue(bytes:timeout:isRaw:closingReason:now:)`` does.
    public mutating func enqueue(
        _ command: String, timeout: Duration?, closingReason: String? = nil, now: ContinuousClock.Instant
    ) -> (RequestID, [SessionAction]) {
        enqueue(bytes: Array(command.utf8), timeout: timeout, closingReason: closingReason, now: now)
    }

    /// Queues the command whose exact bytes (no terminator) are `bytes`; it is sent
    /// when the requests before it are done.
    ///
    /// - Parameters:
    ///   - bytes: the command's bytes, without a terminator.
    ///   - timeout: how long to wait for the reply once sent; `nil` for no limit.
    ///   - isRaw: a raw write: `bytes` are written alone (no terminator), no reply is
    ///     expected, and only `sent` is reported — the request is done once written.
    ///   - closingReason: the device is being closed for this reason: the request
    ///     fails at once, not sent, as after ``hangUp(reason:isAskedFor:now:)``.
    ///   - now: the current instant, from which the timeout counts.
    /// - Returns: the request's identity and the actions to perform now.
    public mutating func enqueue(
        bytes: [UInt8], timeout: Duration?, isRaw: Bool = false, closingReason: String? = nil,
        now: ContinuousClock.Instant
    ) -> (RequestID, [SessionAction]) {
        let command = String(decoding: bytes, as: UTF8.self)
        let request = Request(
            id: RequestID(value: nextID), command: command, bytes: bytes, isRaw: isRaw, timeout: timeout,
            queuedAt: now)
        nextID += 1
        if let reason = closedReason ?? closingReason {
            return (request.id, [.emit(.failed(request.id, command: command, failure: .notSent(reason: reason)))])
        }
        queue.append(request)
        return (request.id, sendNext(now: now))
    }

    /// Keeps requests in the queue, unsent, until ``releaseRequests(endingWaitingText:now:)``:
    /// while the input that was waiting when the port opened (a boot banner, an answer
    /// another program left unread) is taken in, so it becomes notifications and never
    /// the reply to the first command.
    public mutating func holdRequests() { gate.isHoldingRequests = true }

    /// Ends the listen before the first request (``Dialect/listenPeriod``) now, sending
    /// what is queued: a transfer that begins now must find the lines typed before it
    /// written (a shell's `rb` that starts the receiver), not held until it ends.
    ///
    /// - Returns: the actions to perform now (none when not listening).
    public mutating func endListening(now: ContinuousClock.Instant) -> [SessionAction] {
        gate.cutShort(.listen, now: now) ? sendNext(now: now) : []
    }

    /// Ends ``holdRequests()``: the first queued request is sent — for a dialect with a
    /// ``Dialect/listenPeriod`` (a device known to speak unasked) or an
    /// ``Dialect/openingListen`` (`line` told nothing), once it has listened that long
    /// (the gate's `Gate/Reason/listen` hold), so that what the device says unasked is
    /// learned before the first reply is waited for.
    ///
    /// - Parameters:
    ///   - endingWaitingText: the input waiting at open has been taken in. Text
    ///     after its last line end still there when the first request goes out (what
    ///     another program left unread: `…sion`; a prompt no reader consumed) is not
    ///     glued to that command's echo: when the line it begins is the echo only without
    ///     that text (`sionsleep 2`), the text is a notification of its own and the rest
    ///     is the echo. Otherwise the line stays whole (a line that was still arriving).
    ///   - now: the current instant.
    /// - Returns: the actions to perform now.
    public mutating func releaseRequests(endingWaitingText: Bool = false, now: ContinuousClock.Instant)
        -> [SessionAction]
    {
        gate.isHoldingRequests = false
        if dialect.repliesAreUnmarked, let listen = dialect.listenPeriod ?? dialect.openingListen, listen > .zero,
            gate.hold == nil
        {
            gate.start(.listen, from: now, quiet: listen, limit: now + listen, now: now)
        }
        endsWaitingText = endingWaitingText
        return sendNext(now: now)
    }

    /// Cancels request `id`: a queued request leaves the queue; the request in flight
    /// is treated as timed out (its late reply is owed, and the next request waits for
    /// the line to go quiet, as after a timeout). Either way it fails with
    /// ``RequestFailure/cancelled``. A request that has already ended is left alone.
    ///
    /// - Returns: the actions to perform now.
    public mutating func cancel(_ id: RequestID, now: ContinuousClock.Instant) -> [SessionAction] {
        if let index = queue.firstIndex(where: { $0.id == id }) {
            let request = queue.remove(at: index)
            return [.emit(.failed(id, command: request.command, failure: .cancelled))]
        }
        guard let flight = pairing.inFlight, flight.request.id == id else { return [] }
        let contested = pairing.takeContestedByInFlight().map { [SessionAction.emit(.notification($0))] } ?? []
        let gaveUp = pairing.giveUp(flight, failure: .cancelled, now: now, gate: &gate, classifier: &classifier)
        return gate.report(contested + gaveUp) + sendNext(now: now)
    }

    /// Consumes bytes read from the port.
    public mutating func receive(_ received: [UInt8], now: ContinuousClock.Instant) -> [SessionAction] {
        guard closedReason == nil else { return [] }
        let bytes = framing.noteReceived(received, now: now)
        if framing.isInDataMode { return receiveData(bytes, now: now) + sendNext(now: now) }
        var actions: [SessionAction] = []
        let lines = framing.lines(from: bytes)
        actions.reserveCapacity(lines.count)
        for (index, line) in lines.enumerated() {
            route(line, now: now, into: &actions)
            if framing.isInDataMode {
                // The bytes after the reply that entered data mode are data, not lines.
                let rest = framing.bytes(after: index, of: lines)
                return actions + receiveData(rest, now: now) + sendNext(now: now)
            }
        }
        actions += offerPartial(isQuiet: false, now: now)
        return actions + sendNext(now: now)
    }

    /// The host wrote `bytes` outside any request (``Device/writeNow(_:)``, a raw
    /// write): in data mode, the escape `+++` makes the module's `OK` end it.
    public mutating func noteWrite(_ bytes: [UInt8]) { framing.noteWrite(bytes) }

    /// Times out the request in flight if its deadline has passed, ends waits that are
    /// over and sends the next request.
    public mutating func expire(now: ContinuousClock.Instant) -> [SessionAction] {
        let wasInDataMode = framing.isInDataMode
        var actions: [SessionAction] = []
        if let heldData = framing.heldDataAt, heldData <= now, let data = framing.flushData() {
            actions.append(.emit(.data(data)))
        }
        if case .data(let dataMode) = framing.mode { actions += dataMode.failExpired(in: &queue, now: now) }
        if let blockEnd = framing.indefiniteBlockEndAt, blockEnd <= now, let block = framing.endIndefiniteBlock() {
            route(block, now: now, into: &actions)
        }
        if let quietAt = framing.quietPartialAt(isAwaited: pairing.awaitsPartial), quietAt <= now {
            framing.offeredQuietPartial = true
            actions += offerPartial(isQuiet: true, now: now)
        }
        if let pendingAt = framing.pendingTextAt(quiet: Self.pendingTextQuietPeriod), pendingAt <= now {
            framing.reportedPendingText = true
            let line = ControlSequences.cleaned(Line(framing.partial, ending: .unterminated))
            actions.append(.emit(.pendingText(line, start: framing.pendingStart)))
        }
        actions += pairing.expire(now: now, gate: &gate, classifier: &classifier, framing: &framing)
        actions += dataAfterEnteringDataMode(wasInDataMode: wasInDataMode, now: now)
        return gate.report(actions) + sendNext(now: now)
    }

    /// Says whether the port is being read: it is not while an observer is behind
    /// (``EventDelivery/lossless``), and bytes may then wait unread, so no quiet is
    /// counted towards pending text until reading resumes, and the quiet counts from
    /// then. Without this a stalled reader would look like a quiet line and cut a fast
    /// stream's line into a pending report. Cheap enough to call before every `poll`.
    public mutating func noteReading(_ isReading: Bool, now: ContinuousClock.Instant) {
        framing.noteReading(isReading, now: now)
    }

    /// A close was asked for: the raw writes at the head of the queue (typed keys, a
    /// file sent, waiting behind the request in flight or a hold of the gate) are
    /// written now, in order, so that a quit keeps what was typed before it
    /// (docs/CONNECT.md, "How a session ends"); the requests after them fail at the hang-up.
    ///
    /// - Returns: each raw write's `write` and `sent` actions.
    public mutating func releaseQueuedRawWrites() -> [SessionAction] {
        guard closedReason == nil else { return [] }
        var actions: [SessionAction] = []
        while let request = queue.first, request.isRaw {
            queue.removeFirst()
            noteWrite(request.bytes)
            actions.append(.write(request.bytes))
            actions.append(
                .emit(.sent(request.id, command: request.command, bytes: request.bytes, isRaw: true)))
        }
        return actions
    }

    /// The device is gone: reports a settling reply, the lines the request in flight
    /// took (as a partial reply) and the unterminated tail, fails the request in flight
    /// and every queued one, and refuses new ones. `isAskedFor`: the caller ended the
    /// device (the request in flight is ``RequestFailure/stopped(reason:)``, not
    /// ``RequestFailure/disconnected(reason:)``).
    public mutating func hangUp(reason: String, isAskedFor: Bool = false, now: ContinuousClock.Instant)
        -> [SessionAction]
    {
        guard closedReason == nil else { return [] }
        closedReason = reason
        var actions = release(gate.releaseSettlingReply(), now: now)
        if let data = framing.flushData(), !data.isEmpty { actions.append(.emit(.data(data))) }
        actions += pairing.hangUp(now: now, lastByteAt: framing.lastByteAt, gate: &gate)
        if let flight = pairing.inFlight, case let soFar = flight.matcher.linesSoFar, !soFar.isEmpty {
            actions.append(.emit(.partialReply(flight.request.id, command: flight.request.command, lines: soFar)))
        }
        if let tail = framing.finish() { actions.append(.emit(.notification(ControlSequences.cleaned(tail)))) }
        if let flight = pairing.inFlight {
            let failure = isAskedFor ? RequestFailure.stopped(reason: reason) : .disconnected(reason: reason)
            actions.append(.emit(.failed(flight.request.id, command: flight.request.command, failure: failure)))
            pairing.dropInFlight()
        }
        for request in queue {
            actions.append(.emit(.failed(request.id, command: request.command, failure: .notSent(reason: reason))))
        }
        queue.removeAll()
        return actions
    }
}
