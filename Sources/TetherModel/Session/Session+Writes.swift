/// What the port loop tells the session of a command's write, and what a reader
/// consumed of the pending text.
extension Session {
    /// The timeout of request `id` while it is in flight (its write's margin follows
    /// it, ``WriteDeadline``); `nil` when it has none or is not in flight.
    public func timeout(ofInFlight id: RequestID) -> Duration? {
        guard let flight = pairing.inFlight, flight.request.id == id else { return nil }
        return flight.request.timeout
    }

    /// The port has not taken every byte of request `id`'s command yet: its reply
    /// deadline is held until it has (``writeCompleted(of:reachedAt:)``), so a long command
    /// on a slow line is not timed out while it is still being written.
    public mutating func awaitWrite(of id: RequestID) { pairing.awaitWrite(of: id) }

    /// The port took the last byte of request `id`'s command, which reaches the device
    /// by `reachedAt` (its bytes' time on the wire after the write began, when that is
    /// later than the end of the write: the driver's buffer still holds them): the
    /// reply deadline runs from then. Only the command's own write counts, not a
    /// follow-up's (``MatchStep/ask(_:soFar:)``).
    public mutating func writeCompleted(of id: RequestID, reachedAt: ContinuousClock.Instant) {
        pairing.writeCompleted(of: id, reachedAt: reachedAt)
    }

    /// The port did not take every byte of request `id` within its write's deadline
    /// (``WriteDeadline``): the request fails with `failure`
    /// (``RequestFailure/notAllSent(reason:)`` or ``RequestFailure/notSent(reason:)``).
    /// When part of the command left (`isPartlyWritten`) the device may still answer
    /// it, so it is treated as timed out (its late reply owed, the next request sent
    /// once the line is quiet); when none did, the next request is sent at once. A
    /// request no longer in flight (a raw write, a command that expects no reply)
    /// fails all the same, with `command` shown.
    ///
    /// - Returns: the actions to perform now.
    public mutating func writeFailed(
        of id: RequestID, command: String, failure: RequestFailure, isPartlyWritten: Bool,
        now: ContinuousClock.Instant
    ) -> [SessionAction] {
        guard closedReason == nil else { return [] }
        guard let flight = pairing.inFlight, flight.request.id == id else {
            return gate.report([.emit(.failed(id, command: command, failure: failure))]) + sendNext(now: now)
        }
        var actions: [SessionAction] = []
        if let line = pairing.takeContestedByInFlight() { actions.append(.emit(.notification(line))) }
        if isPartlyWritten {
            actions += pairing.giveUp(flight, failure: failure, now: now, gate: &gate, classifier: &classifier)
        } else {
            pairing.dropInFlight()
            actions.append(.emit(.failed(id, command: flight.request.command, failure: failure)))
        }
        return gate.report(actions) + sendNext(now: now)
    }

    /// Removes the first `count` bytes of the pending text that starts at `start` (as
    /// ``SessionEvent/pendingText(_:start:)`` named it), because a reader consumed them:
    /// a script's `expect` matched a prompt in them. The line they began then starts
    /// after them, so the old prompt is never part of what follows, and a request sent
    /// now no longer counts them as a line begun before it.
    ///
    /// A request in flight that was sent before the text began is over: the console
    /// printed its prompt. Its reply is the lines it took so far (often none: a login
    /// prompt's `root` has only its echo, which is dropped), reported at once (or
    /// settled, ``Dialect/repliesAreUnmarked``), and the next request is sent.
    ///
    /// - Parameters:
    ///   - start: the pending text's `start`.
    ///   - count: how many bytes of its text (control sequences removed) were consumed;
    ///     control sequences among them go too.
    ///   - now: the current instant.
    /// - Returns: the actions to perform now; `nil`, changing nothing, when those bytes
    ///   are no longer pending (their line ended, or the device hung up) or are fewer
    ///   than `count`.
    public mutating func consumePendingText(start: Int, count: Int, now: ContinuousClock.Instant)
        -> [SessionAction]?
    {
        guard count > 0, closedReason == nil, start == framing.pendingStart,
            let length = ControlSequences.length(ofPrefixKeeping: count, in: framing.partial)
        else { return nil }
        let consumed = Line(Array(framing.partial.prefix(length)), ending: .unterminated)
        framing.removePartialPrefix(length)
        pairing.waitingPrefix = nil
        // What a reader consumed as the console's prompt is what the console showed
        // (a console that showed its prompt alone, PromptDialect's showsPromptAlone).
        pairing.lastPrompt = consumed
        guard let flight = pairing.inFlight, flight.receivedBefore <= start, pairing.contest == nil else { return [] }
        // Its round trip ends at the prompt's last byte, not now: the reader matched it
        // only after the pending-text quiet, which says nothing of the device's speed
        // (and would stretch every later settling reply by 1.5 times that quiet).
        let answeredAt = max(flight.sentAt, framing.lastByteAt ?? now)
        let wasInDataMode = framing.isInDataMode
        let completed = pairing.complete(
            flight, with: Reply(lines: flight.matcher.linesSoFar), now: now, answeredAt: answeredAt, gate: &gate,
            framing: &framing)
        let data = dataAfterEnteringDataMode(wasInDataMode: wasInDataMode, now: now)
        return gate.report(completed + data) + sendNext(now: now)
    }

    /// Consumes the whole pending text when it was reported and nothing came since — a
    /// person typed a command at the prompt shown to them (`connect`) — as
    /// ``consumePendingText(start:count:now:)`` does.
    ///
    /// - Returns: the actions to perform now; none when there was no such text.
    public mutating func consumeShownPendingText(now: ContinuousClock.Instant) -> [SessionAction] {
        guard framing.reportedPendingText, !framing.partial.isEmpty else { return [] }
        let count = ControlSequences.cleaned(Line(framing.partial, ending: .unterminated)).bytes.count
        return consumePendingText(start: framing.pendingStart, count: count, now: now) ?? []
    }
}
