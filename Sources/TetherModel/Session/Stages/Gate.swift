/// The session's last stage: the one place that decides when the next request may go.
/// Every pause is a ``Hold`` with its ``Reason``; a complete reply that settles is held
/// here too, with what was reported meanwhile. docs/DIALECTS.md, "When the next request
/// goes".
struct Gate: Sendable {
    /// The quiet time after a timeout before the next request is sent.
    static let resyncQuietPeriod = Duration.milliseconds(250)
    /// The longest quiet time asked for after a timeout once the device answered late.
    static let resyncQuietMaximum = Duration.seconds(3)
    /// How much longer than the quiet time the wait may last on a busy line.
    static let resyncLimit = Duration.seconds(1)
    /// The shortest time a reply is held to settle (``Dialect/repliesAreUnmarked``).
    static let settleMinimum = Duration.milliseconds(2)
    /// The longest time a reply is held to settle.
    static let settleMaximum = Duration.seconds(1)
    /// How long the session listens, counted from the evidence, before the next request
    /// once a device not known to speak unasked has shown that it does
    /// (``SettlingEvidence``), so that what it says unasked is learned (``UnaskedLines``)
    /// before more replies are waited for. A request queued that long after the
    /// evidence is not held.
    static let evidenceListenPeriod = Duration.milliseconds(150)

    /// Why the next request waits.
    typealias Reason = HoldReason

    /// A pause before the next request is sent.
    struct Hold: Sendable, Equatable {
        var reason: Reason
        /// When it began.
        var began: ContinuousClock.Instant
        /// Counted from the later of this and the last byte (``Reason/resync``), or from
        /// this alone.
        var from: ContinuousClock.Instant
        var quiet: Duration
        var limit: ContinuousClock.Instant

        /// When it is over, given the last byte and whether unterminated bytes are there.
        func end(lastByteAt: ContinuousClock.Instant?, hasPartial: Bool) -> ContinuousClock.Instant {
            if reason == .resync { return min(max(from, lastByteAt ?? from) + quiet, limit) }
            let end = from + quiet
            return hasPartial ? max(end, limit) : end
        }
    }

    /// A complete reply held while it settles, and what was reported meanwhile.
    struct SettlingReply: Sendable {
        var id: RequestID
        var command: String
        var reply: Reply
        var roundTrip: Duration
        var events: [SessionEvent] = []
        /// Held for the resync quiet because replies were unaccounted for.
        var resyncs = false
        /// What showed that the device speaks unasked, reported before the reply.
        var evidence: SettlingEvidence?
    }

    /// Whether replies settle (unmarked dialects).
    enum Settling: Sendable, Equatable {
        /// No: the device has not shown that it speaks unasked.
        case off
        /// Yes, and the evidence is still to be reported before the first reply held.
        case evidenced(SettlingEvidence)
        /// Yes, evidence reported (or the device was known to speak unasked).
        case on
    }

    private(set) var hold: Hold?
    private(set) var settlingReply: SettlingReply?
    private(set) var settling: Settling
    /// Requests stay queued until ``Session/releaseRequests(endingWaitingText:now:)``.
    var isHoldingRequests = false
    /// When the listen after the evidence (``evidenceListenPeriod``) ends, while it is to come.
    private var evidenceListenEnd: ContinuousClock.Instant?

    init(settlesFromStart: Bool) {
        settling = settlesFromStart ? .on : .off
    }

    var settlesReplies: Bool { settling != .off }

    /// Holds the next request from `now` for `reason`, until `quiet` has passed counted
    /// from `from` (``Hold/end(lastByteAt:hasPartial:)``), within `limit`.
    mutating func start(
        _ reason: Reason, from: ContinuousClock.Instant, quiet: Duration, limit: ContinuousClock.Instant,
        now: ContinuousClock.Instant
    ) {
        hold = Hold(reason: reason, began: now, from: from, quiet: quiet, limit: limit)
    }

    mutating func start(_ hold: Hold) { self.hold = hold }

    /// The hold after a timeout once the device has answered late: quiet for twice the
    /// timeout (within ``resyncQuietPeriod`` and ``resyncQuietMaximum``) from now.
    static func lateResync(after timeout: Duration, now: ContinuousClock.Instant) -> Hold {
        let quiet = min(max(resyncQuietPeriod, timeout * 2), resyncQuietMaximum)
        return Hold(reason: .resync, began: now, from: now, quiet: quiet, limit: now + quiet + resyncLimit)
    }

    /// Ends a hold for `reason` now (a listen a transfer cuts short, a readiness wait
    /// whose late reply ended at the prompt): the next request may go at once. Returns
    /// whether there was one.
    @discardableResult
    mutating func cutShort(_ reason: Reason, now: ContinuousClock.Instant) -> Bool {
        guard hold?.reason == reason else { return false }
        hold?.quiet = .zero
        hold?.limit = now
        return true
    }

    /// A line nobody took came while a reply resyncs: the quiet starts again from now.
    mutating func restartResyncQuiet(now: ContinuousClock.Instant) {
        if settlingReply?.resyncs == true { hold?.from = now }
    }

    /// A line nobody took came while a reply settles: that reply is in doubt.
    mutating func doubtSettlingReply() {
        settlingReply?.reply.isInDoubt = true
    }

    /// The device showed that it speaks unasked: replies settle from now on, and
    /// `evidence` is reported before the first one held.
    mutating func startSettling(_ evidence: SettlingEvidence, now: ContinuousClock.Instant) {
        guard settling == .off else { return }
        settling = .evidenced(evidence)
        // A listen teaches only what the device says unasked: not after a repeated
        // reply (`OK` to two set commands) or a late reply that never came.
        let spokeUnasked = evidence.kind == .unasked || evidence.kind == .begunBeforeCommand
        guard spokeUnasked, Self.evidenceListenPeriod > .zero else { return }
        let end = now + Self.evidenceListenPeriod
        if var listen = hold, listen.reason == .listen {
            // During a listen it lasts that much longer: one listen, reported once.
            listen.quiet = max(listen.quiet, end - listen.from)
            listen.limit = max(listen.limit, end)
            hold = listen
        } else {
            evidenceListenEnd = end
        }
    }

    /// Holds `reply` while it settles for `settle`.
    mutating func settle(_ reply: SettlingReply, for settle: Duration, now: ContinuousClock.Instant) {
        var reply = reply
        if case .evidenced(let evidence) = settling {
            reply.evidence = evidence
            settling = .on
        }
        settlingReply = reply
        hold = Hold(reason: .settling, began: now, from: now, quiet: settle, limit: now + settle * 2)
    }

    /// When the hold is over (the next request may go), or `nil` when there is none.
    func holdEnd(lastByteAt: ContinuousClock.Instant?, hasPartial: Bool) -> ContinuousClock.Instant? {
        hold?.end(lastByteAt: lastByteAt, hasPartial: hasPartial)
    }

    /// Starts the listen after the evidence when it is due and a request waits; returns
    /// whether the next request now waits for it.
    mutating func listensAfterEvidence(now: ContinuousClock.Instant) -> Bool {
        guard let end = evidenceListenEnd, hold == nil, !isHoldingRequests else { return false }
        evidenceListenEnd = nil
        guard now < end else { return false }
        hold = Hold(reason: .listen, began: now, from: now, quiet: end - now, limit: end)
        return true
    }

    /// Ends the hold and releases the settling reply: its event, then those reported
    /// while it settled; `resyncs` says whether it was held to resync. A hold other than
    /// settling that kept `next` waiting is reported (``SessionEvent/held(_:for:before:)``).
    mutating func open(before next: String?, now: ContinuousClock.Instant) -> (events: [SessionEvent], resyncs: Bool) {
        let ended = hold
        hold = nil
        var (events, resyncs) = releaseSettlingReply()
        if let ended, ended.reason != .settling, let next, now > ended.began {
            events.append(.held(ended.reason, for: now - ended.began, before: next))
        }
        return (events, resyncs)
    }

    /// Releases the settling reply (if any) without touching the hold.
    mutating func releaseSettlingReply() -> (events: [SessionEvent], resyncs: Bool) {
        guard let held = settlingReply else { return ([], false) }
        settlingReply = nil
        let reply = SessionEvent.replied(held.id, command: held.command, reply: held.reply, roundTrip: held.roundTrip)
        return ((held.evidence.map { [.settling($0)] } ?? []) + [reply] + held.events, held.resyncs)
    }

    // MARK: - Reporting

    /// `actions` to perform now: while a reply settles, their events are kept for after it.
    mutating func report(_ actions: [SessionAction]) -> [SessionAction] {
        guard settlingReply != nil else { return actions }
        var writes: [SessionAction] = []
        report(actions, into: &writes)
        return writes
    }

    /// Appends `more` to `actions`, keeping their events for after a settling reply
    /// instead while one is held.
    mutating func report(_ more: [SessionAction], into actions: inout [SessionAction]) {
        guard settlingReply != nil else { return actions += more }
        for action in more {
            switch action {
            case .emit(let event): settlingReply!.events.append(event)
            case .write: actions.append(action)
            }
        }
    }

    /// Emits `event` now (appended to `actions`), or keeps it for after a settling reply.
    mutating func report(_ event: SessionEvent, into actions: inout [SessionAction]) {
        if settlingReply != nil { settlingReply!.events.append(event) } else { actions.append(.emit(event)) }
    }
}
