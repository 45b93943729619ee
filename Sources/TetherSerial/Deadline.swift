import TetherPoll

/// A point in time a blocking call must not wait past, on the monotonic clock.
struct Deadline: Sendable {
    private let end: ContinuousClock.Instant

    /// A deadline `milliseconds` ms from now (now itself for 0 or less).
    init(milliseconds: Int) {
        end = .now + .milliseconds(max(0, milliseconds))
    }

    /// Milliseconds left, rounded up, clamped to `0...Int32.max`: the `poll(2)` timeout.
    var remainingMilliseconds: Int32 { (end - .now).pollTimeout }
}
