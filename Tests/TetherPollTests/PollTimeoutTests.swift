import Testing
import TetherPoll

@Suite struct PollTimeoutTests {
    @Test(arguments: [
        (Duration.zero, Int32(0)), (.milliseconds(-5), 0), (.nanoseconds(1), 1), (.microseconds(999), 1),
        (.milliseconds(1), 1), (.microseconds(1001), 2), (.seconds(2), 2000), (.seconds(1e9), Int32.max),
    ])
    func roundsUpToWholeMillisecondsWithinPollsRange(duration: Duration, timeout: Int32) {
        #expect(duration.pollTimeout == timeout)
    }
}
