import Testing

@testable import TetherModel

/// Text waiting when the port opened is never glued to the first command's echo
/// (``Session/releaseRequests(endingWaitingText:now:)``).
@Suite struct WaitingInputTests {
    /// Another program left `…sion` unread: it is a notification of its own, and the
    /// first command's echo is recognised.
    @Test func textWaitingAtOpenIsNotGluedToTheFirstEcho() {
        var harness = SessionHarness(PromptDialect())
        harness.session.holdRequests()
        harness.receive("U-Boot 2023.01 version\r\nsion", at: 0)
        harness.enqueue("sleep 2", timeout: 3000, at: 1)
        #expect(harness.writtenText.isEmpty)
        harness.releaseRequests(endingWaitingText: true, at: 2)
        #expect(harness.writtenText == "sleep 2\r")
        harness.receive("sleep 2\r\n", at: 5)
        #expect(harness.notificationTexts == ["U-Boot 2023.01 version", "sion"])
        #expect(harness.notifications.last?.ending == .unterminated)
        harness.receive("=> ", at: 2005)
        harness.expire(at: 2055)
        #expect(harness.replyLines == [[]])
        #expect(harness.notificationTexts == ["U-Boot 2023.01 version", "sion"])
    }

    /// A prompt a reader consumed before the first command is gone; what came after it
    /// is what was waiting then.
    @Test func onlyWhatIsStillThereWhenTheFirstCommandGoesOutCounts() {
        var harness = SessionHarness(PromptDialect(prompt: "# "))
        harness.session.holdRequests()
        harness.receive("qemux86 login: ", at: 0)
        harness.releaseRequests(endingWaitingText: true, at: 2)
        let consumed = harness.consumePendingText(start: 0, count: "qemux86 login: ".utf8.count, at: 200)
        #expect(consumed)
        harness.receive("\r\nPoky", at: 210)
        harness.enqueue("root", at: 220)
        harness.receive("root\r\n", at: 225)
        #expect(harness.notificationTexts == ["Poky"], "the CR LF after the consumed prompt is framing")
        #expect(harness.writtenText == "root\r")
    }

    /// A line that was still arriving when the first command went out stays whole.
    @Test func aLineStillArrivingStaysWhole() throws {
        var harness = SessionHarness(PromptDialect(notificationPattern: try LinePattern("^!")))
        harness.session.holdRequests()
        harness.receive("!READ", at: 0)
        harness.enqueue("ver", at: 1)
        harness.releaseRequests(endingWaitingText: true, at: 2)
        harness.receive("ING temp=21.5\r\nver\r\nfw 1.2.3\r\n=> ", at: 3)
        harness.expire(at: 53)
        #expect(harness.notificationTexts == ["!READING temp=21.5"])
        #expect(harness.replyLines == [["fw 1.2.3"]])
    }

    /// A prompt waiting at open still joins the echo (`=> ver`), as any prompt does;
    /// so does one when requests are released after a transfer.
    @Test(arguments: [true, false])
    func aPromptWaitingJoinsTheEcho(endingWaitingText: Bool) {
        var harness = SessionHarness(PromptDialect())
        harness.session.holdRequests()
        harness.receive("=> ", at: 0)
        harness.enqueue("ver", at: 1)
        harness.releaseRequests(endingWaitingText: endingWaitingText, at: 2)
        harness.receive("ver\r\nfw 1.2.3\r\n=> ", at: 5)
        harness.expire(at: 55)
        #expect(harness.notifications.isEmpty)
        #expect(harness.replyLines == [["fw 1.2.3"]])
    }
}
