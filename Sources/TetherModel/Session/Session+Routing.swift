/// How a framed line, the unterminated bytes and data-mode bytes pass through the
/// stages, and when the gate lets the next request go.
extension Session {
    /// Routes `line` through classification and pairing, appending what to do to
    /// `actions` (its events kept by the gate while a reply settles).
    mutating func route(_ line: Line, now: ContinuousClock.Instant, into actions: inout [SessionAction]) {
        if pairing.waitingPrefix != nil, let (waiting, rest) = pairing.splitWaitingText(from: line) {
            pairing.partialPrecedesRequest = false
            gate.report(.notification(waiting), into: &actions)
            return route(rest, now: now, into: &actions)
        }
        let isTailOfOverlongLine = framing.beginRouting(line)
        let begunBeforeRequest = pairing.partialPrecedesRequest
        let cameDuringWrite = dialect.repliesAreUnmarked && pairing.inFlight?.write == .writing
        pairing.partialPrecedesRequest = false
        if line.ending != .terminated || isTailOfOverlongLine {
            // An empty tail is the overlong line's line end: framing.
            if !line.isEmpty { gate.report(.notification(line), into: &actions) }
            return
        }
        let cleaned = ControlSequences.cleaned(line)
        if framing.isEndOfDataMode(cleaned) { return }
        let (noise, verdict) = classifier.classify(cleaned, pending: pairing.inFlight?.request.command)
        var taken: [SessionAction] = noise.map { [.emit(.notification($0))] } ?? []
        guard case .candidate(let line) = verdict else {
            gate.report(taken, into: &actions)
            if case .notification(let line) = verdict { gate.report(.notification(line), into: &actions) }
            return
        }
        if !line.isEmpty { pairing.tempo.lastReplyLineAt = now }
        taken += pairing.decideContest(now: now, lastByteAt: framing.lastByteAt, gate: &gate, classifier: &classifier)
        if begunBeforeRequest {
            taken += pairing.offerStray(
                line, now: now, lastByteAt: framing.lastByteAt, gate: &gate, classifier: &classifier)
        } else if cameDuringWrite {
            taken += pairing.offerDuringWrite(
                line, now: now, lastByteAt: framing.lastByteAt, gate: &gate, classifier: &classifier)
        } else {
            taken += pairing.offer(
                line, now: now, gate: &gate, classifier: &classifier, framing: &framing)
        }
        gate.report(taken, into: &actions)
    }

    /// Bytes received in data mode: data, until the code that ends it; what follows
    /// that code is lines again.
    mutating func receiveData(_ bytes: [UInt8], now: ContinuousClock.Instant) -> [SessionAction] {
        let (data, code, lines) = framing.takeData(bytes)
        var actions: [SessionAction] = data.isEmpty ? [] : [.emit(.data(data))]
        if let code {
            actions.append(.emit(.commandMode(code)))
            for line in lines { route(line, now: now, into: &actions) }
        }
        return gate.report(actions)
    }

    /// Data mode began outside a read (a reply decided at its deadline, or ended by a
    /// consumed prompt): the unterminated bytes after that reply are data too, as they
    /// are when it begins in a read.
    mutating func dataAfterEnteringDataMode(wasInDataMode: Bool, now: ContinuousClock.Instant) -> [SessionAction] {
        guard !wasInDataMode, framing.isInDataMode else { return [] }
        let partial = framing.takePartial()
        return partial.isEmpty ? [] : receiveData(partial, now: now)
    }

    /// Offers the unterminated bytes (a prompt) to pairing.
    mutating func offerPartial(isQuiet: Bool, now: ContinuousClock.Instant) -> [SessionAction] {
        guard let partial = framing.offerablePartial else { return [] }
        return pairing.offerPartial(partial, isQuiet: isQuiet, now: now, gate: &gate, framing: &framing)
    }

    /// Sends what the gate lets go: once its hold is over (releasing a settling reply),
    /// the queued requests in order, each raw write at once, until one is in flight.
    mutating func sendNext(now: ContinuousClock.Instant) -> [SessionAction] {
        var actions: [SessionAction] = []
        if pairing.inFlight == nil,
            let end = gate.holdEnd(lastByteAt: framing.lastByteAt, hasPartial: !framing.partial.isEmpty)
        {
            guard now >= end else { return [] }
            actions += release(gate.open(before: queue.first?.command, now: now), now: now)
        }
        if pairing.inFlight == nil, !queue.isEmpty, !framing.isInDataMode, gate.listensAfterEvidence(now: now) {
            return actions
        }
        while pairing.inFlight == nil, gate.hold == nil, !queue.isEmpty, !gate.isHoldingRequests,
            !framing.isInDataMode || queue[0].isRaw
        {
            if endsWaitingText {
                endsWaitingText = false
                if let length = framing.waitingTextLength { pairing.waitingPrefix = length }
            }
            let request = queue.removeFirst()
            if request.isRaw { noteWrite(request.bytes) }
            let sent = SessionEvent.sent(
                request.id, command: request.command, bytes: request.bytes, isRaw: request.isRaw)
            // A raw write is done once written: no reply, and no line is its.
            actions.append(.write(request.isRaw ? request.bytes : dialect.encode(request.bytes)))
            actions.append(.emit(sent))
            if request.isRaw { continue }
            pairing.partialPrecedesRequest = dialect.repliesAreUnmarked && !framing.partial.isEmpty
            classifier.requestSent()
            pairing.tempo.forgetUnaccountedIfQuiet(pairing.resyncQuiet, now: now)
            if dialect.expectsReply(to: request.command) {
                pairing.send(request, receivedBefore: framing.receivedCount, now: now)
            } else {
                actions.append(
                    .emit(.replied(request.id, command: request.command, reply: Reply(lines: []), roundTrip: .zero)))
            }
        }
        return actions
    }

    /// Reports what the gate released (its settling reply, then what was reported while
    /// it settled); a reply held to resync may show the device is in step again.
    mutating func release(
        _ released: (events: [SessionEvent], resyncs: Bool), now: ContinuousClock.Instant
    ) -> [SessionAction] {
        if released.resyncs { pairing.tempo.forgetUnaccountedIfQuiet(pairing.resyncQuiet, now: now) }
        return released.events.map { .emit($0) }
    }
}
