/// The timed-out requests still owed a late reply, and the contested lines between them
/// and the request in flight.
extension Pairing {
    /// Times out what is due at `now`: a contested line's decision, expired late replies,
    /// the request in flight.
    mutating func expire(
        now: ContinuousClock.Instant, gate: inout Gate, classifier: inout Classifier, framing: inout FramingStage
    ) -> [SessionAction] {
        var actions: [SessionAction] = []
        if case .awaitingNextAnswer(let line, let decidesAt, _) = contest, decidesAt <= now {
            contest = nil
            actions += offerContested(line, isInDoubt: true, lastByteAt: framing.lastByteAt)
        }
        if !isAwaitingNextAnswer {
            for index in owed.indices.reversed() where owed[index].expiresAt <= now {
                actions += close(owedAt: index, now: now, gate: &gate)
            }
        }
        if let flight = inFlight, let deadline = flight.deadline, deadline <= now {
            switch contest {
            case .claimedByBoth(let line, let at), .duringWrite(let line, let at):
                actions += giveContested(
                    line, at: at, now: now, gate: &gate, classifier: &classifier, framing: &framing)
            case .awaitingNextAnswer, nil:
                actions += giveUp(
                    flight, failure: .timedOut(flight.request.timeout ?? .zero), now: now, gate: &gate,
                    classifier: &classifier)
            }
        }
        return actions
    }

    private var isAwaitingNextAnswer: Bool {
        if case .awaitingNextAnswer = contest { true } else { false }
    }

    /// A line came after a contested one: whose the contested line was.
    mutating func decideContest(
        now: ContinuousClock.Instant, lastByteAt: ContinuousClock.Instant?, gate: inout Gate,
        classifier: inout Classifier
    ) -> [SessionAction] {
        guard let earlier = contest else { return [] }
        contest = nil
        return earlier.cameDuringWrite
            ? offerStray(earlier.line, now: now, lastByteAt: lastByteAt, gate: &gate, classifier: &classifier)
            : offerContested(earlier.line, lastByteAt: lastByteAt)
    }

    /// The device is gone: the contested line is, by order, the oldest timed-out
    /// request's, in doubt (or a notification, when it came during the write); every
    /// timed-out request is closed.
    mutating func hangUp(now: ContinuousClock.Instant, lastByteAt: ContinuousClock.Instant?, gate: inout Gate)
        -> [SessionAction]
    {
        var actions: [SessionAction] = []
        if let held = contest {
            contest = nil
            actions +=
                held.cameDuringWrite
                ? [.emit(.notification(held.line))] : offerContested(held.line, isInDoubt: true, lastByteAt: lastByteAt)
        }
        for index in owed.indices.reversed() {
            actions += close(owedAt: index, now: now, gate: &gate, countsUnaccounted: false)
        }
        return actions
    }

    /// Gives `line` to the oldest timed-out request whose late reply has not begun, when
    /// it is that request's echo and the echo begins a reply (a device that echoes,
    /// ``ATDialect``); returns its index, or `nil` when there is none. The device answers
    /// in order, so the echo of a command sent again (`AT` timed out, then `AT`) is the
    /// earlier one's.
    mutating func beginLateReply(withEcho line: Line) -> Int? {
        for index in owed.indices where !owed[index].matcher.hasStarted {
            var trial = owed[index].matcher
            if trial.offer(line) == .echo && trial.hasStarted {
                owed[index].matcher = trial
                return index
            }
        }
        return nil
    }

    /// A line came after a contested one (or none came when due, `isInDoubt`): the
    /// contested line was the oldest timed-out request's late reply (or its beginning),
    /// as the device answers in order.
    private mutating func offerContested(
        _ line: Line, isInDoubt: Bool = false, lastByteAt: ContinuousClock.Instant?
    ) -> [SessionAction] {
        answersLate = true
        guard let oldest = owed.firstIndex(where: { !$0.matcher.hasStarted }) else {
            return [.emit(.notification(line))]
        }
        return offer(line, toOwed: oldest, isInDoubt: isInDoubt, lastByteAt: lastByteAt)
            ?? [.emit(.notification(line))]
    }

    /// When the answer after the contested line is due if that line is the oldest
    /// timed-out request's late reply: the device answering in order, each command as
    /// late as that one, answers the command sent after it that much after it was sent
    /// (plus ``Gate/resyncQuietPeriod``); `nil` when no request is owed.
    private func nextAnswerDue(after at: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let oldest = owed.firstIndex(where: { !$0.matcher.hasStarted }), let flight = inFlight else {
            return nil
        }
        let lateness = at - owed[oldest].sentAt
        let nextSentAt = oldest + 1 < owed.count ? owed[oldest + 1].sentAt : flight.sentAt
        return nextSentAt + lateness + Gate.resyncQuietPeriod
    }

    /// The in-flight request's deadline passed with a contested line held. When the
    /// device, as late as the line says, cannot have answered the next command yet
    /// (``nextAnswerDue(after:)``), the request in flight times out too and the line
    /// waits for that answer: three commands to a device answering 3 s late with a 1 s
    /// timeout get three late replies, each its own. Otherwise the earlier answer was
    /// lost: the line is the in-flight reply, in doubt, and the timed-out requests are
    /// closed.
    private mutating func giveContested(
        _ line: Line, at: ContinuousClock.Instant, now: ContinuousClock.Instant, gate: inout Gate,
        classifier: inout Classifier, framing: inout FramingStage
    ) -> [SessionAction] {
        let cameDuringWrite = contest?.cameDuringWrite ?? false
        guard var flight = inFlight else {
            contest = nil
            return [.emit(.notification(line))]
        }
        if cameDuringWrite, case .complete(let reply) = flight.matcher.offer(line) {
            contest = nil
            return complete(flight, with: reply, now: now, answeredAt: at, gate: &gate, framing: &framing)
        }
        answersLate = true
        let timedOut = RequestFailure.timedOut(flight.request.timeout ?? .zero)
        if let due = nextAnswerDue(after: at), due > now {
            contest = .awaitingNextAnswer(line, decidesAt: due, cameDuringWrite: cameDuringWrite)
            return giveUp(flight, failure: timedOut, now: now, gate: &gate, classifier: &classifier)
        }
        contest = nil
        dropInFlight()
        var actions: [SessionAction] = []
        for index in owed.indices.reversed() where !owed[index].matcher.hasStarted {
            actions += close(owedAt: index, now: now, gate: &gate)
        }
        guard case .complete(var reply) = flight.matcher.offer(line) else {
            return actions + [.emit(.notification(line))]
                + giveUp(flight, failure: timedOut, now: now, gate: &gate, classifier: &classifier)
        }
        reply.isInDoubt = true
        actions += complete(flight, with: reply, now: at, gate: &gate, framing: &framing)
        gate.start(Gate.lateResync(after: flight.request.timeout ?? .zero, now: now))
        return actions
    }

    /// Offers `line` to a timed-out request's matcher; `nil` when it is not taken.
    /// A timed-out request cannot ask the device for more: what it has is its late reply.
    /// `isInDoubt`: a late reply it completes is in doubt (no line after it confirmed the order).
    mutating func offer(
        _ line: Line, toOwed index: Int, isInDoubt: Bool = false, lastByteAt: ContinuousClock.Instant?
    ) -> [SessionAction]? {
        switch owed[index].matcher.offer(line) {
        case .notMine: return nil
        case .echo, .consumed, .write: return []
        case .complete(var reply), .ask(_, var reply):
            answersLate = true
            let closed = owed.remove(at: index)
            if let lastByteAt { tempo.noteAnswer(after: lastByteAt - closed.sentAt) }
            // An earlier late reply that never came may be this one.
            if isInDoubt || repliesAreUnmarked && tempo.isBehind { reply.isInDoubt = true }
            return [.emit(.lateReply(command: closed.command, reply: reply))]
        }
    }

    /// Gives up a timed-out request: the lines it took after its timeout without
    /// completing are reported as notifications. In an unmarked dialect its late reply
    /// is unaccounted for: the device may still send it (``ReplyTempo/Step/behind(count:since:)``).
    /// `countsUnaccounted`: false when the device hung up (nothing more will come).
    mutating func close(
        owedAt index: Int, now: ContinuousClock.Instant, gate: inout Gate, countsUnaccounted: Bool = true
    ) -> [SessionAction] {
        let closed = owed.remove(at: index)
        if repliesAreUnmarked, countsUnaccounted {
            tempo.noteUnaccounted(now: now)
            gate.startSettling(SettlingEvidence(.noLateReply, command: closed.command), now: now)
        }
        return closed.matcher.linesSoFar.dropFirst(closed.linesAtTimeout).filter { !$0.isEmpty }.map {
            .emit(.notification($0))
        }
    }
}
