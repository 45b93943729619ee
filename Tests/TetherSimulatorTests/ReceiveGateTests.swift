import Testing

@testable import TetherSimulator

/// The receiver without a FIFO of `--receive-gap`, by itself.
@Suite struct ReceiveGateTests {
    @Test func aByteIsTakenOnlyOnceTheGapHasPassed() {
        var gate = ReceiveGate(gap: .milliseconds(5))
        let start = ContinuousClock.now
        #expect(gate.filter(Array("PRINT".utf8), at: start) == (Array("P".utf8), Array("RINT".utf8)))
        #expect(gate.filter(Array("R".utf8), at: start + .milliseconds(4)) == ([], Array("R".utf8)))
        #expect(gate.filter(Array("R".utf8), at: start + .milliseconds(5)) == (Array("R".utf8), []))
        #expect(gate.filter([], at: start + .milliseconds(50)) == ([], []))
    }
}
