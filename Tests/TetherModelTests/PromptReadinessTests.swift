import Testing

@testable import TetherModel

/// After a timeout in the `prompt` dialect the next command waits for the console's
/// prompt, up to ``PromptDialect/readinessWait``: a console busy with the timed-out
/// command (U-Boot's `sleep 2`) is silent and discards what is typed meanwhile.
@Suite struct PromptReadinessTests {
    @Test func theNextCommandWaitsForThePromptNotForQuiet() {
        var harness = SessionHarness(PromptDialect())
        harness.enqueue("sleep 2", timeout: 1000)
        harness.enqueue("echo next", timeout: 1000)
        harness.receive("sleep 2\r\n", at: 5)
        harness.expire(at: 1000)
        #expect(harness.timedOut == ["sleep 2"])
        // Quiet for far longer than 250 ms: still nothing sent.
        harness.expire(at: 1900)
        #expect(harness.writtenText == "sleep 2\r")
        harness.receive("=> ", at: 2005)
        #expect(harness.writtenText == "sleep 2\r")
        harness.expire(at: 2055)
        #expect(harness.lateReplies.map(\.command) == ["sleep 2"])
        #expect(harness.writtenText == "sleep 2\recho next\r")
        harness.receive("echo next\r\nnext\r\n=> ", at: 2060)
        harness.expire(at: 2110)
        #expect(harness.replyLines == [["next"]])
    }

    /// A console that never prints its prompt: the next command goes out at the bound.
    @Test func theWaitIsBounded() {
        var harness = SessionHarness(PromptDialect(readinessWait: .milliseconds(3000)))
        harness.enqueue("boot", timeout: 1000)
        harness.enqueue("echo next", timeout: 1000)
        harness.receive("boot\r\nStarting kernel ...\r\n", at: 5)
        harness.expire(at: 1000)
        harness.expire(at: 3999)
        #expect(harness.writtenText == "boot\r")
        harness.expire(at: 4000)
        #expect(harness.writtenText == "boot\recho next\r")
    }

    /// A command the console never echoed (it may not have heard it) waits for quiet, as
    /// in the other dialects.
    @Test func aCommandWithNoEchoWaitsForQuiet() {
        var harness = SessionHarness(PromptDialect())
        harness.enqueue("ver", timeout: 1000)
        harness.enqueue("echo next", timeout: 1000)
        harness.expire(at: 1000)
        #expect(harness.writtenText == "ver\recho next\r")
    }

    /// Without a readiness wait the dialect waits for quiet.
    @Test func noReadinessWaitMeansQuiet() {
        var harness = SessionHarness(PromptDialect(readinessWait: nil))
        harness.enqueue("sleep 2", timeout: 1000)
        harness.enqueue("echo next", timeout: 1000)
        harness.receive("sleep 2\r\n", at: 5)
        harness.expire(at: 1000)
        #expect(harness.writtenText == "sleep 2\recho next\r")
    }
}
