/// The conversation with one device as a pure state machine: requests in, bytes in,
/// actions out. No I/O and no clock of its own — every call gets `now` — so it can be
/// tested line by line.
///
/// Rules:
/// - One request is in flight at a time; the others wait in order (FIFO).
/// - Received bytes are framed into lines (``LineFramer``). A line the dialect calls
///   unsolicited is a notification. Any other line is offered, in this order, to
///   matchers of timed-out requests that have already taken part of their late
///   reply, then to the request in flight, then to other timed-out requests; a line
///   nobody takes is a notification (empty lines are dropped).
/// - A request that times out keeps its matcher for as long as the quiet wait below
///   may last (its quiet time plus ``resyncLimit``), so its late reply is reported as
///   late and never answers a later request — until then, or until a later request
///   is answered; after that a stray line (a duplicate, a very late answer) is a
///   notification, not a late reply. Before the next
///   request is sent the session also waits until the line has been quiet for twice
///   the timed-out request's timeout (at least ``resyncQuietPeriod``, at most
///   ``resyncQuietMaximum``; on a line that never goes quiet, ``resyncLimit`` longer
///   at most): a reply up to three timeouts late then arrives while nothing else is
///   pending. Later than that, a dialect whose replies cannot be told apart (`line`,
///   `scpi`) may take it as the next request's reply.
/// - The unterminated bytes after the last line (a console prompt such as `=> `) are
///   offered with ``ReplyMatcher/offerPartial(_:)`` in the same order, after the lines.
/// - A matcher may ask for a follow-up command (``MatchStep/ask(_:soFar:)``, e.g. SCPI
///   `SYST:ERR?`): it is written at once, within the same request and timeout.
/// - Overlong pieces, the terminated tail of an overlong line and the unterminated
///   tail at hang-up are notifications, never replies.
/// - After ``hangUp(reason:now:)`` every pending and queued request fails and new
///   ones fail at once.
/// - No received line is lost: the lines a request's matcher took before the request
///   ended without its reply (a timeout, a hang-up, a late reply that never completed)
///   are reported as ``SessionEvent/partialReply(_:command:lines:)``.
public struct Session: Sendable {
    /// The shortest quiet time after a timeout before the next request is sent; the
    /// quiet time is twice the timeout, within this and ``resyncQuietMaximum``.
    public var resyncQuietPeriod: Duration = .milliseconds(250)
    /// The longest quiet time asked for after a timeout.
    public var resyncQuietMaximum: Duration = .seconds(3)
    /// How much longer than the quiet time the wait may last on a busy line.
    public var resyncLimit: Duration = .seconds(1)

    /// The dialect in use.
    public let dialect: any Dialect
    private var framer: LineFramer
    private var nextID = 1
    private var queue: [Request] = []
    private var inFlight: InFlight?
    private var owed: [Owed] = []
    private var resyncUntil: ContinuousClock.Instant?
    private var resyncQuiet: Duration = .zero
    private var resyncDeadline: ContinuousClock.Instant?
    private var closedReason: String?
    private var isHoldingRequests = false
    /// Whether the last line was an overlong piece, so the next one is its tail.
    private var continuesOverlongLine = false

    private struct InFlight {
        var request: Request
        var matcher: any ReplyMatcher
        var sentAt: ContinuousClock.Instant
        var deadline: ContinuousClock.Instant?
    }

    private struct Owed {
        var id: RequestID
        var command: String
        var matcher: any ReplyMatcher
        var expiresAt: ContinuousClock.Instant
        /// How many of the matcher's lines were reported when the request timed out.
        var linesReported: Int

        /// The lines taken since the timeout, as a partial reply (none when empty).
        var unreported: [SessionAction] {
            let lines = Array(matcher.linesSoFar.dropFirst(linesReported))
            return lines.isEmpty ? [] : [.emit(.partialReply(id, command: command, lines: lines))]
        }
    }

    /// Creates a session speaking `dialect`.
    ///
    /// - Parameter maximumLineLength: the longest line kept whole, in bytes.
    public init(dialect: any Dialect, maximumLineLength: Int = LineFramer.defaultMaximumLineLength) {
        self.dialect = dialect
        self.framer = LineFramer(maximumLineLength: maximumLineLength)
    }

    /// Whether a request is in flight or queued.
    public var isBusy: Bool { inFlight != nil || !queue.isEmpty }

    /// When ``expire(now:)`` next has work: the in-flight request's deadline or the end
    /// of a resynchronisation wait; `nil` when there is nothing to time.
    public var nextDeadline: ContinuousClock.Instant? {
        if let flight = inFlight { return flight.deadline }
        guard !queue.isEmpty, !isHoldingRequests, let until = resyncUntil, let limit = resyncDeadline else {
            return nil
        }
        return min(until, limit)
    }

    /// Queues `command`; it is sent when the requests before it are done.
    ///
    /// - Returns: the request's identity and the actions to perform now.
    public mutating func enqueue(
        _ command: String, timeout: Duration?, now: ContinuousClock.Instant
    ) -> (RequestID, [SessionAction]) {
        let request = Request(id: RequestID(value: nextID), command: command, timeout: timeout)
        nextID += 1
        if let reason = closedReason {
            let failure = RequestFailure.notSent(reason: reason)
            return (request.id, [.emit(.failed(request.id, command: command, failure: failure))])
        }
        queue.append(request)
        return (request.id, sendNext(now: now))
    }

    /// Keeps requests in the queue, unsent, until ``releaseRequests(now:)``: while the
    /// input that was waiting when the port opened (a boot banner, an answer another
    /// program left unread) is taken in, so it becomes notifications and never the
    /// reply to the first command.
    public mutating func holdRequests() {
        isHoldingRequests = true
    }

    /// Ends ``holdRequests()``: the first queued request is sent.
    ///
    /// - Returns: the actions to perform now.
    public mutating func releaseRequests(now: ContinuousClock.Instant) -> [SessionAction] {
        isHoldingRequests = false
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
        guard let flight = inFlight, flight.request.id == id else { return [] }
        return giveUp(flight, failure: .cancelled, now: now) + sendNext(now: now)
    }

    /// Consumes bytes read from the port.
    public mutating func receive(_ bytes: [UInt8], now: ContinuousClock.Instant) -> [SessionAction] {
        guard closedReason == nil else { return [] }
        if resyncUntil != nil { resyncUntil = now + resyncQuiet }
        var actions: [SessionAction] = []
        for line in framer.append(bytes) {
            actions += route(line, now: now)
        }
        actions += offerPartial(now: now)
        return actions + sendNext(now: now)
    }

    /// Times out the request in flight if its deadline has passed, and sends the next
    /// one when a resynchronisation wait is over.
    public mutating func expire(now: ContinuousClock.Instant) -> [SessionAction] {
        var actions = owed.filter { $0.expiresAt <= now }.flatMap(\.unreported)
        owed.removeAll { $0.expiresAt <= now }
        if let flight = inFlight, let deadline = flight.deadline, deadline <= now {
            actions += giveUp(flight, failure: .timedOut(flight.request.timeout ?? .zero), now: now)
        }
        return actions + sendNext(now: now)
    }

    /// Ends the request in flight without its reply: reports what it received so far,
    /// fails it with `failure`, keeps its matcher for the late reply, and starts the
    /// quiet wait before the next request.
    private mutating func giveUp(
        _ flight: InFlight, failure: RequestFailure, now: ContinuousClock.Instant
    ) -> [SessionAction] {
        inFlight = nil
        var actions: [SessionAction] = []
        let soFar = flight.matcher.linesSoFar
        if !soFar.isEmpty {
            actions.append(.emit(.partialReply(flight.request.id, command: flight.request.command, lines: soFar)))
        }
        actions.append(.emit(.failed(flight.request.id, command: flight.request.command, failure: failure)))
        let timeout = flight.request.timeout ?? resyncQuietPeriod
        resyncQuiet = min(max(resyncQuietPeriod, timeout * 2), resyncQuietMaximum)
        resyncUntil = now + resyncQuiet
        resyncDeadline = now + resyncQuiet + resyncLimit
        owed.append(
            Owed(
                id: flight.request.id, command: flight.request.command, matcher: flight.matcher,
                expiresAt: resyncDeadline!, linesReported: soFar.count))
        return actions
    }

    /// A reply to a later request has come, so the late replies of earlier timed-out
    /// requests would have come before it: those not begun are given up, and a stray
    /// line after it (a duplicate, say) is a notification, not a late reply.
    private mutating func dropUnstartedOwed() {
        owed.removeAll { !$0.matcher.hasStarted }
    }

    /// The device is gone: reports the unterminated tail, fails the request in flight
    /// and every queued one, and refuses new ones.
    public mutating func hangUp(reason: String, now: ContinuousClock.Instant) -> [SessionAction] {
        guard closedReason == nil else { return [] }
        closedReason = reason
        var actions = owed.flatMap(\.unreported)
        if let flight = inFlight, case let soFar = flight.matcher.linesSoFar, !soFar.isEmpty {
            actions.append(.emit(.partialReply(flight.request.id, command: flight.request.command, lines: soFar)))
        }
        if let tail = framer.finish() { actions.append(.emit(.notification(tail))) }
        if let flight = inFlight {
            actions.append(
                .emit(
                    .failed(flight.request.id, command: flight.request.command, failure: .disconnected(reason: reason)))
            )
            inFlight = nil
        }
        for request in queue {
            actions.append(.emit(.failed(request.id, command: request.command, failure: .notSent(reason: reason))))
        }
        queue.removeAll()
        owed.removeAll()
        return actions
    }

    private mutating func sendNext(now: ContinuousClock.Instant) -> [SessionAction] {
        var actions: [SessionAction] = []
        while inFlight == nil, !queue.isEmpty, !isHoldingRequests {
            if let until = resyncUntil, let limit = resyncDeadline {
                if now < until && now < limit { break }
                resyncUntil = nil
                resyncDeadline = nil
            }
            let request = queue.removeFirst()
            actions.append(.write(dialect.encode(request.command)))
            actions.append(.emit(.sent(request.id, command: request.command)))
            if dialect.expectsReply(to: request.command) {
                inFlight = InFlight(
                    request: request, matcher: dialect.makeMatcher(for: request.command), sentAt: now,
                    deadline: request.timeout.map { now + $0 })
            } else {
                actions.append(
                    .emit(.replied(request.id, command: request.command, reply: Reply(lines: []), roundTrip: .zero)))
            }
        }
        return actions
    }

    private mutating func route(_ line: Line, now: ContinuousClock.Instant) -> [SessionAction] {
        let isTailOfOverlongLine = continuesOverlongLine
        continuesOverlongLine = line.ending == .overlong
        if line.ending != .terminated || isTailOfOverlongLine
            || dialect.isUnsolicited(line, pending: inFlight?.request.command)
        {
            return [.emit(.notification(line))]
        }
        let started = owed.indices.filter { owed[$0].matcher.hasStarted }
        for index in started {
            if let actions = offer(line, toOwed: index) { return actions }
        }
        if var flight = inFlight {
            let step = flight.matcher.offer(line)
            inFlight = flight
            switch step {
            case .notMine: break
            case .echo, .consumed: return []
            case .ask(let command, _):
                return [.write(dialect.encode(command)), .emit(.sent(flight.request.id, command: command))]
            case .complete(let reply):
                inFlight = nil
                dropUnstartedOwed()
                return [
                    .emit(
                        .replied(
                            flight.request.id, command: flight.request.command, reply: reply,
                            roundTrip: now - flight.sentAt))
                ]
            }
        }
        for index in owed.indices where !started.contains(index) {
            if let actions = offer(line, toOwed: index) { return actions }
        }
        return line.isEmpty ? [] : [.emit(.notification(line))]
    }

    /// Offers the unterminated tail (a prompt) in the same order as lines: timed-out
    /// requests whose late reply has begun, then the request in flight.
    private mutating func offerPartial(now: ContinuousClock.Instant) -> [SessionAction] {
        guard !framer.partial.isEmpty else { return [] }
        for index in owed.indices where owed[index].matcher.hasStarted {
            if let reply = owed[index].matcher.offerPartial(framer.partial) {
                _ = framer.takePartial()
                let command = owed.remove(at: index).command
                return [.emit(.lateReply(command: command, reply: reply))]
            }
        }
        guard var flight = inFlight else { return [] }
        let reply = flight.matcher.offerPartial(framer.partial)
        inFlight = flight
        guard let reply else { return [] }
        _ = framer.takePartial()
        inFlight = nil
        dropUnstartedOwed()
        let request = flight.request
        return [.emit(.replied(request.id, command: request.command, reply: reply, roundTrip: now - flight.sentAt))]
    }

    /// Offers `line` to a timed-out request's matcher; `nil` when it is not taken.
    /// A timed-out request cannot ask the device for more: what it has is its late reply.
    private mutating func offer(_ line: Line, toOwed index: Int) -> [SessionAction]? {
        switch owed[index].matcher.offer(line) {
        case .notMine: return nil
        case .echo, .consumed: return []
        case .complete(let reply), .ask(_, let reply):
            let command = owed.remove(at: index).command
            return [.emit(.lateReply(command: command, reply: reply))]
        }
    }
}
