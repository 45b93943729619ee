/// The lines of one ``FaultPlan/Burst`` on one connection, each at its due instant: line
/// `i` (from 1) is due `startDelay + (i - 1) / rate` after the client opened the port.
/// A value with no I/O; the serving loop takes what is due.
struct NotificationBurst {
    let burst: FaultPlan.Burst
    private let start: ContinuousClock.Instant
    private let interval: Duration
    /// Lines taken so far.
    private(set) var taken = 0

    /// A burst for a client that opened the port at `connectedAt`.
    init(_ burst: FaultPlan.Burst, connectedAt: ContinuousClock.Instant) {
        self.burst = burst
        start = connectedAt + FaultPlan.Burst.startDelay
        interval = .seconds(1) / max(burst.rate, 1e-9)
    }

    /// When the next line is due, or `nil` when the burst is over.
    var nextDue: ContinuousClock.Instant? {
        taken < burst.count ? start + interval * taken : nil
    }

    /// Every line due at `now` not taken yet, each `<text> n=<i>\r\n`, as one write.
    mutating func take(at now: ContinuousClock.Instant) -> [UInt8] {
        var bytes: [UInt8] = []
        while let due = nextDue, due <= now {
            taken += 1
            bytes += Array("\(burst.text) n=\(taken)\r\n".utf8)
        }
        return bytes
    }
}
