import Testing

@testable import TetherModel

/// Blank lines the device sent are notifications while nothing is pending; inside a
/// reply they are its framing and dropped, never a reply nor a reason for doubt.
@Suite struct BlankLineTests {
    @Test func blankLinesWhileIdleAreNotifications() {
        var harness = SessionHarness(LineDialect())
        harness.receive("boot\n\n\nready\n", at: 0)
        #expect(harness.notificationTexts == ["boot", "", "", "ready"])
    }

    @Test func atRepliesDropTheirFraming() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CSQ")
        harness.receive("AT+CSQ\r\r\n+CSQ: 23,99\r\n\r\nOK\r\n", at: 5)
        #expect(harness.replyLines == [["+CSQ: 23,99"]])
        #expect(harness.notifications.isEmpty)
        harness.receive("\r\nRING\r\n", at: 10)
        #expect(harness.notificationTexts == ["RING"], "V.250 heads every code with CR LF: framing")
    }

    @Test func aBlankLineIsNeverTheReply() {
        var harness = SessionHarness(LineDialect())
        harness.enqueue("MEAS?")
        harness.receive("\n\n12.5\n", at: 5)
        #expect(harness.replyLines == [["12.5"]])
        #expect(harness.replies.allSatisfy { !$0.reply.isInDoubt })
        #expect(harness.notifications.isEmpty)
    }
}
