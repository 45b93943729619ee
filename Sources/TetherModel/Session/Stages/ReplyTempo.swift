/// What the device's answers showed of its pace, for ``Pairing`` and the ``Gate``: how long
/// it takes to answer, its last reply (to recognise a repeat), and whether it may still
/// send replies of requests closed without them (unmarked dialects).
struct ReplyTempo: Sendable {
    /// Whether the replies seen are the device's answers in step.
    enum Step: Sendable, Equatable {
        case inStep
        /// `count` timed-out requests were closed without their late reply, the last at
        /// `since`: the device may still send them, and they would be taken for later ones.
        case behind(count: Int, since: ContinuousClock.Instant)
    }

    private(set) var step = Step.inStep
    /// The longest the device took to answer: round trips and late replies.
    private(set) var longestAnswer: Duration = .zero
    private var recentRoundTrips: [Duration] = []
    /// When the last line came that no pattern or learned shape calls a notification.
    var lastReplyLineAt: ContinuousClock.Instant?
    /// The lines of the last reply (unmarked dialects), to recognise a repeat.
    var lastReply: (command: String, lines: [Line]) = ("", [])

    var isBehind: Bool { step != .inStep }

    mutating func noteRoundTrip(_ roundTrip: Duration) {
        longestAnswer = max(longestAnswer, roundTrip)
        recentRoundTrips.append(roundTrip)
        if recentRoundTrips.count > 32 { recentRoundTrips.removeFirst() }
    }

    mutating func noteAnswer(after duration: Duration) { longestAnswer = max(longestAnswer, duration) }

    /// How long a complete reply settles: 1.5 times the longest of the last 32 round trips,
    /// within ``Gate/settleMinimum`` and ``Gate/settleMaximum``.
    var settleTime: Duration {
        min(max(Gate.settleMinimum, (recentRoundTrips.max() ?? .zero) * 3 / 2), Gate.settleMaximum)
    }

    /// The quiet that shows a device with unaccounted replies is in step again: twice
    /// the longest it took to answer, within `minimum` and `maximum`.
    func resyncQuiet(minimum: Duration, maximum: Duration) -> Duration {
        min(max(minimum, longestAnswer * 2), maximum)
    }

    /// A timed-out request was closed without its late reply at `now`.
    mutating func noteUnaccounted(now: ContinuousClock.Instant) {
        let count = if case .behind(let count, _) = step { count } else { 0 }
        step = .behind(count: count + 1, since: now)
    }

    /// A line nobody took: it may be one of the unaccounted replies. Returns whether it was counted so.
    mutating func accountForStray() -> Bool {
        guard case .behind(let count, let since) = step else { return false }
        step = count > 1 ? .behind(count: count - 1, since: since) : .inStep
        return true
    }

    /// Forgets the unaccounted replies once no reply line has come for `quiet` since they
    /// were counted: the device is in step.
    mutating func forgetUnaccountedIfQuiet(_ quiet: Duration, now: ContinuousClock.Instant) {
        guard case .behind(_, let since) = step else { return }
        if now - max(since, lastReplyLineAt ?? since) >= quiet { step = .inStep }
    }
}
