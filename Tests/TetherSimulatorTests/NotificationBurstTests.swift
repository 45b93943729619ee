import Testing

@testable import TetherSimulator

@Suite struct NotificationBurstTests {
    @Test func linesComeAtTheRateAfterTheStartDelay() {
        let start = ContinuousClock.now
        var burst = NotificationBurst(.init(count: 5, rate: 100), connectedAt: start)
        #expect(burst.nextDue == start + FaultPlan.Burst.startDelay)
        #expect(burst.take(at: start).isEmpty)
        let second = start + FaultPlan.Burst.startDelay + .milliseconds(10)
        #expect(String(decoding: burst.take(at: second), as: UTF8.self) == "!BURST n=1\r\n!BURST n=2\r\n")
        let text = String(decoding: burst.take(at: second + .seconds(1)), as: UTF8.self)
        #expect(text == "!BURST n=3\r\n!BURST n=4\r\n!BURST n=5\r\n")
        #expect(burst.nextDue == nil)
    }
}
