import Testing

@testable import TetherModel

/// Payloads through the ``Session``: they never end a reply, are never a final result
/// code or a prompt, and go to the reply or the notifications the dialect says.
@Suite struct PayloadSessionTests {
    @Test func scpiBlockIsOneAnswerAndTheNextQueryGetsItsOwn() {
        var harness = SessionHarness(SCPIDialect())
        harness.enqueue("CURV?")
        let block = (0..<2000).map { UInt8($0 % 256) }
        harness.receive(Array("#42000".utf8) + block + [0x0A], at: 5)
        harness.enqueue("*IDN?", at: 6)
        harness.receive("TETHER,PSU\n", at: 8)
        #expect(harness.replies.map(\.command) == ["CURV?", "*IDN?"])
        #expect(harness.replies[0].reply.lines.first?.payload.map(Array.init) == block)
        #expect(harness.replyLines[1] == ["TETHER,PSU"])
        #expect(harness.notifications.isEmpty)
    }

    /// `#0`: the block ends at a LF followed by the partial quiet period (50 ms); a LF
    /// with bytes soon after it is data.
    @Test func indefiniteBlockEndsAfterQuiet() {
        var harness = SessionHarness(SCPIDialect())
        harness.enqueue("CURV?")
        harness.receive("#0ab\n", at: 5)
        harness.expire(at: 30)
        harness.receive("cd\n", at: 40)
        harness.expire(at: 60)
        #expect(harness.replies.isEmpty)
        #expect(harness.session.nextDeadline == harness.at(90))
        harness.expire(at: 90)
        #expect(harness.replies.first?.reply.lines.first?.payload.map(Array.init) == Array("ab\ncd".utf8))
        #expect(harness.events.allSatisfy { if case .pendingText = $0 { false } else { true } })
    }

    @Test func ipdPayloadHoldingOKEndsNothing() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CIPSTATUS")
        harness.receive("AT+CIPSTATUS\r\r\n+IPD,1,11:OK\r\nHELLO\r\n\r\nSTATUS:3\r\n\r\nOK\r\n", at: 5)
        #expect(harness.replyLines == [["STATUS:3"]])
        #expect(harness.notificationTexts == ["+IPD,1,11:OK\r\nHELLO\r\n"])
        #expect(harness.notifications.first?.payload.map(Array.init) == Array("OK\r\nHELLO\r\n".utf8))
    }

    @Test func qirdPayloadBelongsToItsReply() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+QIRD=0,5")
        harness.receiveBytewise("\r\n+QIRD: 5\r\nab\r\nc\r\nOK\r\n", at: 5)
        #expect(harness.replyLines == [["+QIRD: 5", "ab\r\nc"]])
        #expect(harness.replies.first?.reply.lines.last?.payloadRange == 0..<5)
        #expect(harness.notifications.isEmpty)
    }

    @Test func declaredFormFromSettings() throws {
        let settings = DialectSettings(payloadHeaders: [try PayloadHeaderTemplate("+CIPRECVDATA:{len},")])
        var harness = SessionHarness(try ATDialect.kind.makeDialect(settings))
        harness.enqueue("AT+CIPRECVDATA=4")
        harness.receive("\r\n+CIPRECVDATA:4,OK\r\n\r\nOK\r\n", at: 5)
        #expect(harness.replyLines == [["+CIPRECVDATA:4,OK\r\n"]])
    }
}
