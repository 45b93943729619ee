/// A receiver slower than the host's writes (``FaultPlan/drainBaud``, `--drain-baud
/// <rate>`; ``FaultPlan/holdInput``, `--hold-input <ms>`): the device takes bytes from
/// the pty no faster than a line at `rate` baud, 10 bits a byte (9600 ≈ 1.04 ms a
/// byte, in reads of at most ``fifoSize`` bytes), and with a hold takes none for that
/// long after the first read of a connection — a device whose flow control holds the
/// host back while it writes flash. Bytes it does not take stay in the pty, whose
/// buffers fill, so the host's writes are held as by XOFF or CTS.
struct DrainGate {
    /// The most bytes one read takes when the rate allows them (a UART's FIFO).
    static let fifoSize = 16
    /// How late the serving loop may wake and still read at the full rate (the reads
    /// then catch up, a FIFO at a time): a loaded machine wakes it tens of ms late, and
    /// counting only a FIFO's worth (17 ms at 9600 baud) drained far below the rate
    /// (`DrainGateTests`).
    static let lateness: Duration = .milliseconds(250)
    /// The time one byte takes, or `nil` for no rate.
    let byteTime: Duration?
    let hold: Duration?
    private var holdUntil: ContinuousClock.Instant?
    private var hasHeld = false
    private var nextByteAt: ContinuousClock.Instant?

    init(baudRate: Int?, hold: Duration?) {
        byteTime = baudRate.map { .microseconds(10_000_000 / Int64($0)) }
        self.hold = hold
    }

    /// A client connected: its first read starts the hold again.
    mutating func startConnection() {
        holdUntil = nil
        hasHeld = false
        nextByteAt = nil
    }

    /// How many bytes the device may read at `now` (0: none until ``nextReadAt``).
    func allowance(at now: ContinuousClock.Instant) -> Int {
        if let holdUntil, now < holdUntil { return 0 }
        // The first read before a hold takes one FIFO's worth, not all that keeps coming.
        if hold != nil, !hasHeld { return Self.fifoSize }
        guard let byteTime else { return .max }
        guard let nextByteAt else { return Self.fifoSize }
        guard now >= nextByteAt else { return 0 }
        return min(Self.fifoSize, 1 + Int((now - nextByteAt) / byteTime))
    }

    /// When the device may read again, when it may not at `now`.
    func nextReadAt(after now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard allowance(at: now) == 0 else { return nil }
        if let holdUntil, now < holdUntil { return max(holdUntil, nextByteAt ?? holdUntil) }
        return nextByteAt
    }

    /// The device read `count` bytes at `now`.
    mutating func didRead(_ count: Int, at now: ContinuousClock.Instant) {
        guard count > 0 else { return }
        if let hold, !hasHeld {
            hasHeld = true
            holdUntil = now + hold
        }
        // Time the serving loop was late for counts, up to ``lateness``: the rate stays
        // exact on a loaded machine, and a burst after a pause is no faster than it.
        if let byteTime { nextByteAt = max(nextByteAt ?? now, now - Self.lateness) + byteTime * count }
    }
}
