import Testing

@testable import TetherModel

/// In `+CMGR:`/`+CMGL:` answers the lines after each header are the message's text,
/// never a result code; a body ends where the modem's framing says (docs/DIALECTS.md,
/// "Message bodies").
@Suite struct ATMessageBodyTests {
    static let header = "+CMGR: \"REC UNREAD\",\"+31612345678\",,\"26/11/30,09:15:00+04\""

    /// The exact input: a body of three lines whose last reads `OK`; the `OK` after the
    /// blank line is the final result code — whole, and one byte per read.
    @Test func aBodyOfSeveralLinesEndingInOKEndsAtTheFinalResultCode() {
        let answer = "\r\n\(Self.header)\r\nline one\r\nline two\r\nOK\r\n\r\nOK\r\n"
        for bytewise in [false, true] {
            var harness = SessionHarness(ATDialect())
            harness.enqueue("AT+CMGR=1")
            if bytewise { harness.receiveBytewise(answer, at: 10) } else { harness.receive(answer, at: 10) }
            #expect(harness.replyLines == [[Self.header, "line one", "line two", "OK"]])
            #expect(harness.replies.first?.reply.finalResult == Line("OK"))
            #expect(harness.notifications.isEmpty)
            #expect(harness.timedOut.isEmpty)
        }
    }

    /// A blank line inside a body is its text when text follows it.
    @Test func aBlankLineInsideABodyIsText() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CMGR=1")
        harness.receive("\r\n\(Self.header)\r\nHi\r\n\r\nBye\r\n\r\nOK\r\n", at: 10)
        #expect(harness.replyLines == [[Self.header, "Hi", "", "Bye"]])
    }

    /// A listing's body of several lines ends at the next `+CMGL:` header.
    @Test func aListingBodyEndsAtTheNextHeader() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CMGL=\"ALL\"")
        harness.receive(
            "\r\n+CMGL: 1,\"REC READ\",\"+1555\",,\"26/11/30\"\r\nfirst\r\nOK\r\n"
                + "+CMGL: 2,\"REC READ\",\"+1555\",,\"26/11/30\"\r\nsecond\r\n\r\nOK\r\n", at: 10)
        #expect(
            harness.replyLines == [
                [
                    "+CMGL: 1,\"REC READ\",\"+1555\",,\"26/11/30\"", "first", "OK",
                    "+CMGL: 2,\"REC READ\",\"+1555\",,\"26/11/30\"", "second",
                ]
            ])
    }

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

    /// A `+CMTI:` after the body's blank line is an unsolicited result code, not text.
    @Test func aCodeAfterTheBodyIsStillUnsolicited() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CMGR=2")
        harness.receive(
            "\r\n+CMGR: \"REC READ\",\"+1555\",,\"26/11/30\"\r\nHi\r\n\r\n+CMTI: \"SM\",4\r\n\r\nOK\r\n", at: 10)
        #expect(harness.replyLines == [["+CMGR: \"REC READ\",\"+1555\",,\"26/11/30\"", "Hi"]])
        #expect(harness.notificationTexts == ["+CMTI: \"SM\",4"])
    }
}
