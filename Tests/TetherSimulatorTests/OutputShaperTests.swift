import Testing

@testable import TetherSimulator

/// Split writes and pacing, driven with a made-up clock.
@Suite struct OutputShaperTests {
    private let start = ContinuousClock.now

    /// Writes everything the shaper lets go, the pty taking all; returns the writes and
    /// the instant of the last one.
    private func drain(_ shaper: inout OutputShaper) -> (writes: [[UInt8]], end: ContinuousClock.Instant) {
        var writes: [[UInt8]] = []
        var now = start
        while let due = shaper.nextDue {
            now = max(now, due)
            guard let bytes = shaper.nextWrite(at: now) else { break }
            writes.append(Array(bytes))
            shaper.didWrite(bytes.count, at: now)
        }
        return (writes, now)
    }

    @Test func splitWritesAreSmallPiecesInOrderWithGaps() {
        var plan = FaultPlan(seed: 1)
        plan.splitMaximum = 3
        plan.splitGap = .milliseconds(2)
        var shaper = OutputShaper(plan: plan)
        let text = Array("TETHER,ENV-1,SIM0001,1.0\r\n".utf8)
        shaper.enqueue(text, at: start)
        let (writes, end) = drain(&shaper)
        #expect(writes.allSatisfy { (1...3).contains($0.count) })
        #expect(writes.count >= text.count / 3)
        #expect(writes.flatMap { $0 } == text)
        #expect(end - start <= .milliseconds(2) * writes.count)
        #expect(end > start)
    }

    @Test func pacingAt9600BaudTakesAboutAMillisecondPerByte() {
        var plan = FaultPlan()
        plan.paceBaud = 9600
        var shaper = OutputShaper(plan: plan)
        shaper.enqueue([UInt8](repeating: 0x41, count: 960), at: start)
        let (writes, end) = drain(&shaper)
        #expect(writes.flatMap { $0 }.count == 960)
        // 960 bytes × 10 bits / 9600 baud = 1 s; the last write starts one window early.
        #expect(end - start >= .milliseconds(990))
        #expect(end - start <= .milliseconds(1000))
    }

    @Test func withoutFaultsAnOutputIsOneWrite() {
        var shaper = OutputShaper(plan: FaultPlan())
        shaper.enqueue(Array("OK\r\n".utf8), at: start)
        shaper.enqueue(Array("!X\r\n".utf8), at: start)
        #expect(drain(&shaper).writes == [Array("OK\r\n".utf8), Array("!X\r\n".utf8)])
        #expect(shaper.isEmpty)
    }

    @Test func aShortWriteLeavesTheRestForLater() {
        var shaper = OutputShaper(plan: FaultPlan())
        shaper.enqueue(Array("abcdef".utf8), at: start)
        shaper.didWrite(4, at: start)
        #expect(shaper.nextWrite(at: start).map(Array.init) == Array("ef".utf8))
    }
}
