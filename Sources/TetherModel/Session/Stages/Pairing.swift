/// The session's third stage: which request a line answers — the request in flight, the
/// timed-out requests still owed a late reply, a line both would take (``Contest``) —
/// and when a reply is complete, timed out or in doubt. docs/DIALECTS.md, "Rules every
/// dialect shares".
struct Pairing: Sendable {
    /// Where the command in flight is on its way to the device.
    enum WriteProgress: Sendable, Equatable {
        /// Handed to the port; its deadline runs from the send.
        case sent
        /// The port has not taken all its bytes yet: no deadline runs
        /// (``Session/awaitWrite(of:)``).
        case writing
        /// The port took its last byte (``Session/writeCompleted(of:reachedAt:)``).
        case written
    }

    struct InFlight: Sendable {
        var request: Request
        var matcher: any ReplyMatcher
        var sentAt: ContinuousClock.Instant
        var deadline: ContinuousClock.Instant?
        /// The bytes received before it was sent (``FramingStage/receivedCount``).
        var receivedBefore = 0
        var write = WriteProgress.sent
    }

    /// A timed-out request still owed its late reply.
    struct Owed: Sendable {
        var command: String
        var matcher: any ReplyMatcher
        var linesAtTimeout: Int
        var expiresAt: ContinuousClock.Instant
        var sentAt: ContinuousClock.Instant
    }

    /// A line held until what follows decides whose it is.
    enum Contest: Sendable {
        /// The request in flight has taken nothing yet and the oldest timed-out request
        /// would take the line too: the next line decides it was the late reply, the
        /// deadline passing first that it was the reply in flight, in doubt.
        case claimedByBoth(Line, at: ContinuousClock.Instant)
        /// It came while the port had not taken the command in flight whole: the next line
        /// decides it was a stray, the deadline that it was the reply.
        case duringWrite(Line, at: ContinuousClock.Instant)
        /// The request in flight timed out too, the device looking as late as the line
        /// says (``Pairing/nextAnswerDue(after:at:)``): unless the next line comes by
        /// `decidesAt`, the line is the oldest timed-out request's, in doubt.
        /// `cameDuringWrite`: it was held as ``duringWrite(_:at:)`` first.
        case awaitingNextAnswer(Line, decidesAt: ContinuousClock.Instant, cameDuringWrite: Bool)

        var line: Line {
            switch self {
            case .claimedByBoth(let line, _), .duringWrite(let line, _), .awaitingNextAnswer(let line, _, _): line
            }
        }

        /// Whether it came while the command was being written (a stray, when a line follows).
        var cameDuringWrite: Bool {
            switch self {
            case .duringWrite: true
            case .awaitingNextAnswer(_, _, let cameDuringWrite): cameDuringWrite
            case .claimedByBoth: false
            }
        }
    }

    let dialect: any Dialect
    let repliesAreUnmarked: Bool
    var inFlight: InFlight?
    var owed: [Owed] = []
    var contest: Contest?
    /// Whether the device has answered late: the quiet asked for after a timeout grows.
    var answersLate = false
    var tempo = ReplyTempo()
    /// Whether the line being framed began before the request in flight was sent.
    var partialPrecedesRequest = false
    /// How many bytes of the line being framed were there when the first request went out
    /// after the input waiting at open (``Session/releaseRequests(endingWaitingText:now:)``).
    var waitingPrefix: Int?
    /// The prompt the last reply or late reply ended at, for the next request's matcher
    /// (``Dialect/makeMatcher(for:bytes:lastPrompt:)``: a console that showed its prompt alone).
    var lastPrompt: Line?

    init(dialect: any Dialect) {
        self.dialect = dialect
        repliesAreUnmarked = dialect.repliesAreUnmarked
    }

    /// Whether a late reply has begun, or a request is in flight: the unterminated bytes may be a prompt.
    var awaitsPartial: Bool { inFlight != nil || owed.contains(where: { $0.matcher.hasStarted }) }

    /// The earliest instant something here times out.
    var nextDeadline: ContinuousClock.Instant? {
        // A timed-out request waits for the contested line's decision before it expires.
        let late: ContinuousClock.Instant? =
            if case .awaitingNextAnswer(_, let decidesAt, _) = contest { decidesAt } else {
                owed.lazy.map(\.expiresAt).min()
            }
        guard let deadline = inFlight?.deadline else { return late }
        return late.map { min($0, deadline) } ?? deadline
    }

    /// The resync quiet of the gate's bounds (``ReplyTempo/resyncQuiet(minimum:maximum:)``).
    var resyncQuiet: Duration { tempo.resyncQuiet(minimum: Gate.resyncQuietPeriod, maximum: Gate.resyncQuietMaximum) }

    // MARK: - Sending

    /// Puts `request` in flight, sent `now` after `receivedBefore` bytes came.
    mutating func send(_ request: Request, receivedBefore: Int, now: ContinuousClock.Instant) {
        inFlight = InFlight(
            request: request,
            matcher: dialect.makeMatcher(for: request.command, bytes: request.bytes, lastPrompt: lastPrompt),
            sentAt: now,
            deadline: request.timeout.map { now + $0 }, receivedBefore: receivedBefore)
    }

    mutating func awaitWrite(of id: RequestID) {
        guard inFlight?.request.id == id else { return }
        inFlight?.write = .writing
        inFlight?.deadline = nil
    }

    mutating func writeCompleted(of id: RequestID, reachedAt: ContinuousClock.Instant) {
        guard let flight = inFlight, flight.request.id == id, flight.write != .written else { return }
        inFlight?.write = .written
        guard let timeout = flight.request.timeout else { return }
        inFlight?.deadline = max(flight.deadline ?? reachedAt, reachedAt + timeout)
    }

    /// Ends the request in flight as not sent at all (nothing of it left).
    mutating func dropInFlight() { inFlight = nil }

    /// The contested line while the request in flight is one of its claimants (not once
    /// that request timed out too): a request that ends otherwise leaves it a notification.
    mutating func takeContestedByInFlight() -> Line? {
        guard let contest else { return nil }
        if case .awaitingNextAnswer = contest { return nil }
        self.contest = nil
        return contest.line
    }

    // MARK: - Ending the request in flight

    /// Ends the request in flight without its reply (timed out or cancelled): reports
    /// what it received so far, fails it with `failure`, keeps its matcher for the late
    /// reply, and starts the gate's hold before the next request.
    mutating func giveUp(
        _ flight: InFlight, failure: RequestFailure, now: ContinuousClock.Instant, gate: inout Gate,
        classifier: inout Classifier
    ) -> [SessionAction] {
        inFlight = nil
        classifier.requestGotNoReply()
        var actions: [SessionAction] = []
        let timeout = flight.request.timeout ?? Gate.resyncQuietPeriod
        let soFar = flight.matcher.linesSoFar
        if !soFar.isEmpty {
            actions.append(.emit(.partialReply(flight.request.id, command: flight.request.command, lines: soFar)))
        }
        actions.append(.emit(.failed(flight.request.id, command: flight.request.command, failure: failure)))
        var expiresAt = Gate.lateResync(after: timeout, now: now).limit
        if let readiness = dialect.readinessWait, flight.matcher.hasStarted {
            // The device is busy with the command; what is sent before its prompt may be lost.
            gate.start(.readiness, from: now, quiet: readiness, limit: now + readiness, now: now)
            expiresAt = max(expiresAt, now + readiness)
        } else if answersLate {
            gate.start(Gate.lateResync(after: timeout, now: now))
        } else {
            gate.start(
                .resync, from: flight.sentAt, quiet: Gate.resyncQuietPeriod,
                limit: now + Gate.resyncQuietPeriod + Gate.resyncLimit, now: now)
        }
        owed.append(
            Owed(
                command: flight.request.command, matcher: flight.matcher, linesAtTimeout: soFar.count,
                expiresAt: expiresAt, sentAt: flight.sentAt))
        return actions
    }

    /// Completes the request in flight with `reply`: held by the gate to settle when the
    /// dialect's replies are unmarked and settle, reported at once otherwise. The round
    /// trip runs to `answeredAt` (default: `now`), the last byte of the reply.
    mutating func complete(
        _ flight: InFlight, with reply: Reply, now: ContinuousClock.Instant, answeredAt: ContinuousClock.Instant? = nil,
        gate: inout Gate, framing: inout FramingStage
    ) -> [SessionAction] {
        inFlight = nil
        let roundTrip = (answeredAt ?? now) - flight.sentAt
        var actions: [SessionAction] = []
        for index in owed.indices.reversed() where !owed[index].matcher.hasStarted {
            actions += close(owedAt: index, now: now, gate: &gate)
        }
        var reply = reply
        // A late reply that never came may be this one: in doubt, and held until the
        // line has been quiet long enough to show that the device is in step.
        let resyncs = repliesAreUnmarked && tempo.isBehind
        if resyncs { reply.isInDoubt = true }
        tempo.noteRoundTrip(roundTrip)
        if dialect.entersDataMode(after: reply) { framing.enterDataMode(now: now) }
        if repliesAreUnmarked {
            // The same answer to another command is a repeat; the same answer to the
            // same command (a steady reading) is not, nor the same error to two
            // commands (a device answers each command it rejects with its error:
            // `ERR -113` to two unknown ones), nor the same acknowledgement, a reply
            // with no digit in it (`OK` to two set commands): only a reading repeats.
            let command = flight.request.command
            if reply.lines == tempo.lastReply.lines, command != tempo.lastReply.command, !reply.isError,
                reply.lines.contains(where: { $0.bytes.contains { (0x30...0x39).contains($0) } })
            {
                gate.startSettling(SettlingEvidence(.repeatedReply, line: reply.lines[0], command: command), now: now)
            }
            tempo.lastReply = (command, reply.lines)
        }
        guard repliesAreUnmarked, gate.settlesReplies else {
            let event = SessionEvent.replied(
                flight.request.id, command: flight.request.command, reply: reply, roundTrip: roundTrip)
            return [.emit(event)] + actions
        }
        let settle = resyncs ? resyncQuiet : tempo.settleTime
        gate.settle(
            Gate.SettlingReply(
                id: flight.request.id, command: flight.request.command, reply: reply, roundTrip: roundTrip,
                resyncs: resyncs),
            for: settle, now: now)
        return actions
    }

    /// A line nobody took: a notification, and the device's evidence that it speaks unasked.
    mutating func stray(
        _ line: Line, evidence: SettlingEvidence.Kind, now: ContinuousClock.Instant, gate: inout Gate
    ) {
        if repliesAreUnmarked { gate.startSettling(SettlingEvidence(evidence, line: line), now: now) }
        if tempo.accountForStray() { gate.restartResyncQuiet(now: now) }
    }

    /// Writes `bytes` as they are, for the request in flight (its matcher's answer to a
    /// prompt, ``MatchStep/write(_:)``), reported as a raw `sent` of that request.
    func answer(_ flight: InFlight, with bytes: [UInt8]) -> [SessionAction] {
        let text = String(decoding: bytes, as: UTF8.self)
        return [.write(bytes), .emit(.sent(flight.request.id, command: text, bytes: bytes, isRaw: true))]
    }

    // MARK: - Lines

    /// Offers a candidate line (``Classifier/Verdict/candidate(_:)``) in the pairing order:
    /// the oldest timed-out request whose late reply has not begun, when the line is its
    /// echo and the echo begins a reply; the request in flight, when the line is its echo
    /// (closing every earlier timed-out request); timed-out requests whose late reply has
    /// begun; the request in flight; other timed-out requests. A line nobody takes is a
    /// notification.
    mutating func offer(
        _ line: Line, now: ContinuousClock.Instant, gate: inout Gate, classifier: inout Classifier,
        framing: inout FramingStage
    ) -> [SessionAction] {
        var actions: [SessionAction] = []
        if let index = beginLateReply(withEcho: line) {
            for older in (0..<index).reversed() { actions += close(owedAt: older, now: now, gate: &gate) }
            return actions
        }
        if let flight = inFlight, !owed.isEmpty {
            var trial = flight.matcher
            if trial.offer(line) == .echo {
                for index in owed.indices.reversed() { actions += close(owedAt: index, now: now, gate: &gate) }
                inFlight?.matcher = trial
                return actions
            }
        }
        let started = owed.indices.filter { owed[$0].matcher.hasStarted }
        for index in started {
            if let taken = offer(line, toOwed: index, lastByteAt: framing.lastByteAt) { return taken }
        }
        if var flight = inFlight {
            if !flight.matcher.hasStarted, let oldest = owed.firstIndex(where: { !$0.matcher.hasStarted }) {
                var trial = owed[oldest].matcher
                if trial.offer(line) != .notMine {
                    var inFlightTrial = flight.matcher
                    if case .complete = inFlightTrial.offer(line) {
                        contest = .claimedByBoth(line, at: now)
                        return []
                    }
                }
            }
            let step = flight.matcher.offer(line)
            inFlight = flight
            switch step {
            case .notMine: break
            case .echo, .consumed: return []
            case .ask(let command, _):
                let bytes = Array(command.utf8)
                return [.write(dialect.encode(bytes)), .emit(.sent(flight.request.id, command: command, bytes: bytes))]
            case .write(let bytes):
                return answer(flight, with: bytes)
            case .complete(let reply):
                return complete(flight, with: reply, now: now, gate: &gate, framing: &framing)
            }
        }
        for index in owed.indices where !started.contains(index) {
            if let taken = offer(line, toOwed: index, lastByteAt: framing.lastByteAt) { return taken }
        }
        if line.isEmpty { return [] }
        stray(line, evidence: .unasked, now: now, gate: &gate)
        gate.doubtSettlingReply()
        if inFlight == nil, gate.settlingReply == nil { classifier.learn(line) }
        return [.emit(.notification(line))]
    }

    /// A line that began before the request in flight was sent: a late reply of a
    /// timed-out request, or a stray.
    mutating func offerStray(
        _ line: Line, now: ContinuousClock.Instant, lastByteAt: ContinuousClock.Instant?, gate: inout Gate,
        classifier: inout Classifier
    ) -> [SessionAction] {
        for index in owed.indices {
            if let taken = offer(line, toOwed: index, lastByteAt: lastByteAt) { return taken }
        }
        if line.isEmpty { return [] }
        stray(line, evidence: .begunBeforeCommand, now: now, gate: &gate)
        classifier.learn(line)
        return [.emit(.notification(line))]
    }

    /// A line that came while the port had not taken the command in flight whole (a
    /// paced or slow write): a timed-out request's late reply, else — when the command
    /// in flight would take it whole — held (``Contest/duringWrite(_:at:)``): a line
    /// after it decides it was a stray (a `!READING` during a paced `PRINT 2+2`); the
    /// deadline, running once the write is done, passing first decides that the device
    /// answered before the write was done (`ERR -363` to a command longer than its
    /// buffer): the reply. Otherwise a stray.
    mutating func offerDuringWrite(
        _ line: Line, now: ContinuousClock.Instant, lastByteAt: ContinuousClock.Instant?, gate: inout Gate,
        classifier: inout Classifier
    ) -> [SessionAction] {
        func takes(_ matcher: any ReplyMatcher) -> Bool {
            var trial = matcher
            if case .complete = trial.offer(line) { return true }
            return false
        }
        func isLateReply(_ owed: Owed) -> Bool {
            var trial = owed.matcher
            return trial.offer(line) != .notMine
        }
        if let flight = inFlight, !line.isEmpty, !flight.matcher.hasStarted, takes(flight.matcher),
            !owed.contains(where: isLateReply)
        {
            contest = .duringWrite(line, at: now)
            return []
        }
        return offerStray(line, now: now, lastByteAt: lastByteAt, gate: &gate, classifier: &classifier)
    }

    /// The unterminated bytes `partial` (a prompt), offered in the same order as lines:
    /// timed-out requests whose late reply has begun, then the request in flight.
    mutating func offerPartial(
        _ partial: [UInt8], isQuiet: Bool, now: ContinuousClock.Instant, gate: inout Gate,
        framing: inout FramingStage
    ) -> [SessionAction] {
        let continuesOverlong = framing.continuesOverlongLine
        for index in owed.indices where owed[index].matcher.hasStarted {
            guard !continuesOverlong || owed[index].matcher.findsPromptAfterText else { continue }
            if let reply = owed[index].matcher.offerPartial(partial, isQuiet: isQuiet) {
                framing.restOfPrompt = owed[index].matcher.restOfPrompt(after: partial)
                framing.takePartial()
                answersLate = true
                gate.cutShort(.readiness, now: now)
                let command = owed.remove(at: index).command
                lastPrompt = reply.prompt
                return gate.report([.emit(.lateReply(command: command, reply: reply))])
            }
        }
        guard var flight = inFlight, !continuesOverlong || flight.matcher.findsPromptAfterText else { return [] }
        if let bytes = flight.matcher.answer(toPrompt: partial, isQuiet: isQuiet) {
            inFlight = flight
            framing.restOfPrompt = flight.matcher.restOfPrompt(after: partial)
            framing.takePartial()
            return gate.report(answer(flight, with: bytes))
        }
        let reply = flight.matcher.offerPartial(partial, isQuiet: isQuiet)
        inFlight = flight
        guard let reply else { return [] }
        lastPrompt = reply.prompt
        framing.restOfPrompt = flight.matcher.restOfPrompt(after: partial)
        framing.takePartial()
        return gate.report(complete(flight, with: reply, now: now, gate: &gate, framing: &framing))
    }
}
