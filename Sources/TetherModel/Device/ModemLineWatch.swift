import TetherPoll
import TetherSerial

/// Looks at a port's modem status inputs (CTS, DSR, DCD, RI) every ``interval`` and
/// turns each change into a ``LineEvent/modemLines(_:changed:)``: DCD dropping, RI
/// ringing. A deadline of the port loop, not a thread of its own.
///
/// Polled, not waited for with `TIOCMIWAIT`: a thread blocked in it holds the port open
/// until a line changes, so a close could not end it (docs/HARDWARE.md). The driver's
/// change counts (`TIOCGICOUNT`), where it keeps them, catch a change and back between
/// two looks (a short ring), and its overrun count the characters lost meanwhile.
struct ModemLineWatch: Sendable {
    /// How often the inputs are looked at: 100 ms.
    static let interval = Duration.milliseconds(100)

    private var last: ModemStatus?
    private var nextLookAt: ContinuousClock.Instant?

    /// Forgets the last look: a port just opened (or reopened) is looked at at once,
    /// its inputs then being the baseline, not a change.
    mutating func reset() {
        last = nil
        nextLookAt = nil
    }

    /// The `poll` timeout in ms until the next look, at most `timeout`.
    func timeout(atMost timeout: Int32, now: ContinuousClock.Instant) -> Int32 {
        guard let nextLookAt else { return 0 }
        return min(timeout, nextLookAt <= now ? 0 : (nextLookAt - now).pollTimeout)
    }

    /// Looks at `source` if the time has come.
    ///
    /// - Returns: what happened since the last look: an overrun the driver counted, a
    ///   change of the inputs; none at the first look. A port whose inputs cannot be read
    ///   is looked at again later.
    mutating func look(at source: any ModemStatusSource, now: ContinuousClock.Instant) -> [LineEvent] {
        if let nextLookAt, now < nextLookAt { return [] }
        nextLookAt = now + Self.interval
        guard let status = try? source.modemStatus() else { return [] }
        defer { last = status }
        guard let last else { return [] }
        var events: [LineEvent] = []
        if let overruns = status.overruns, let before = last.overruns, overruns != before { events.append(.overrun) }
        let changed = status.changedInputs(since: last)
        if !changed.isEmpty {
            events.append(.modemLines(status.lines.intersection([.cts, .dsr, .dcd, .ri]), changed: changed))
        }
        return events
    }
}
