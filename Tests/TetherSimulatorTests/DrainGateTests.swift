import Testing

@testable import TetherSimulator

/// The receiver of `--drain-baud`, by itself: its rate holds when the serving loop
/// wakes late, as on a loaded machine.
@Suite struct DrainGateTests {
    /// Reads everything `gate` allows at `now`, a FIFO at a time; returns the count.
    private func readAll(_ gate: inout DrainGate, at now: ContinuousClock.Instant) -> Int {
        var total = 0
        var allowed = gate.allowance(at: now)
        while allowed > 0 {
            gate.didRead(allowed, at: now)
            total += allowed
            allowed = gate.allowance(at: now)
        }
        return total
    }

    /// Reads as the serving loop does (everything allowed, a FIFO at a time) every
    /// `interval` for 2 s at 9600 baud (960 bytes/s).
    private func bytesRead(waking interval: Duration) -> Int {
        var gate = DrainGate(baudRate: 9600, hold: nil)
        let start = ContinuousClock.now
        var now = start
        var total = 0
        while now <= start + .seconds(2) {
            total += readAll(&gate, at: now)
            now += interval
        }
        return total
    }

    /// 1922 bytes (16, then 960 a second) whether the loop wakes every 1, 20, 50 or
    /// 200 ms; with only a FIFO's worth of lateness counted it read 1703, 696, 186, and
    /// a 20 000-byte command to a device draining at 9600 baud could not go out within
    /// its wire time and the 2 000 ms margin (`HeldWriteEndToEndTests`).
    @Test(arguments: [1, 20, 50, 200])
    func theRateHoldsWhenTheLoopWakesLate(milliseconds: Int) {
        let read = bytesRead(waking: .milliseconds(milliseconds))
        #expect((1900...1940).contains(read), "\(read) bytes in 2 s, waking every \(milliseconds) ms")
    }

    /// After a pause longer than the lateness allowed, the device does not read the
    /// pause's bytes at once: at most 250 ms' worth (240 bytes) and a FIFO.
    @Test func aPauseGivesNoBurstBeyondTheLateness() {
        var gate = DrainGate(baudRate: 9600, hold: nil)
        let start = ContinuousClock.now
        gate.didRead(DrainGate.fifoSize, at: start)
        let total = readAll(&gate, at: start + .seconds(10))
        #expect(total <= 240 + DrainGate.fifoSize, "\(total)")
    }
}
