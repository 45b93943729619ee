/// A receiver without a FIFO (``FaultPlan/receiveGap``, `--receive-gap <ms>`): a UART
/// whose firmware polls one holding register loses each byte that arrives before it
/// took the last one. A byte is accepted when at least `gap` has passed since the last
/// byte accepted; the others are dropped. Bytes that came in one `read()` arrived
/// together, so at most the first of them is accepted.
struct ReceiveGate {
    /// The shortest time between two accepted bytes.
    let gap: Duration
    private var lastAccepted: ContinuousClock.Instant?

    init(gap: Duration) {
        self.gap = gap
    }

    /// What the receiver keeps of `bytes`, read at `now`, and what it loses.
    mutating func filter(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> (accepted: [UInt8], dropped: [UInt8]) {
        guard let first = bytes.first else { return ([], []) }
        if let lastAccepted, now - lastAccepted < gap { return ([], bytes) }
        lastAccepted = now
        return ([first], Array(bytes.dropFirst()))
    }
}
