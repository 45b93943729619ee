import Testing

@testable import TetherModel

/// In `+CMGR:`/`+CMGL:` answers the line after each header is the message's text,
/// never a result code (docs/DIALECTS.md, "Message bodies").
@Suite struct ATMessageBodyTests {
    /// The exact input: a message whose text is `ERROR` is information, and the
    /// module's `OK` ends the reply, a success.
    @Test func aBodyThatReadsERRORDoesNotEndTheReply() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CMGR=1")
        harness.receive(
            "+CMGR: \"REC UNREAD\",\"+15551230000\",,\"26/11/30,09:15:00+04\"\r\nERROR\r\n\r\nOK\r\n", at: 10)
        #expect(harness.replyLines == [["+CMGR: \"REC UNREAD\",\"+15551230000\",,\"26/11/30,09:15:00+04\"", "ERROR"]])
        #expect(harness.replies.first?.reply.isError == false)
        #expect(harness.replies.first?.reply.finalResult == Line("OK"))
        #expect(harness.notifications.isEmpty)
    }

    /// A listing: each header's next line is its body (`OK`, a `+XXX:`-looking text,
    /// an empty text); the listing ends at the module's `OK`.
    @Test func everyBodyOfAListingIsInformation() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CMGL=\"ALL\"")
        harness.receive("\r\n+CMGL: 1,\"REC READ\",\"+1555\",,\"26/11/30\"\r\nOK\r\n", at: 10)
        harness.receive("+CMGL: 2,\"REC READ\",\"+1555\",,\"26/11/30\"\r\n+CMTI: call me\r\n", at: 20)
        harness.receive("+CMGL: 3,\"REC READ\",\"+1555\",,\"26/11/30\"\r\n\r\n", at: 30)
        #expect(harness.replies.isEmpty)
        harness.receive("\r\nOK\r\n", at: 40)
        #expect(harness.replyLines.first?.count == 6)
        #expect(harness.replyLines.first?[1] == "OK")
        #expect(harness.replyLines.first?[3] == "+CMTI: call me")
        #expect(harness.replyLines.first?[5] == "")
        #expect(harness.notifications.isEmpty)
    }

    /// Only the line right after a header is a body: a `+CMTI:` after the body is still
    /// an unsolicited result code.
    @Test func aCodeAfterTheBodyIsStillUnsolicited() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CMGR=2")
        harness.receive(
            "\r\n+CMGR: \"REC READ\",\"+1555\",,\"26/11/30\"\r\nHi\r\n\r\n+CMTI: \"SM\",4\r\n\r\nOK\r\n", at: 10)
        #expect(harness.replyLines == [["+CMGR: \"REC READ\",\"+1555\",,\"26/11/30\"", "Hi"]])
        #expect(harness.notificationTexts == ["+CMTI: \"SM\",4"])
    }
}
