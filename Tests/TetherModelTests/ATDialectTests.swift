import Testing

@testable import TetherModel

/// The `at` dialect through the session, with the exact bytes of the device cases.
@Suite struct ATDialectTests {
    static let csqChunks = ["\r\n+CSQ: 2", "3,99\r\n", "\r\nOK\r\n"]

    /// A reply split across reads is one reply, one line.
    @Test func splitReplyIsPutBackTogether() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CSQ", timeout: 2000)
        #expect(harness.writtenText == "AT+CSQ\r")
        harness.receive(Self.csqChunks[0], at: 0)
        harness.receive(Self.csqChunks[1], at: 150)
        #expect(harness.replies.isEmpty)
        harness.receive(Self.csqChunks[2], at: 300)
        #expect(harness.replyLines == [["+CSQ: 23,99"]])
        #expect(harness.replies.first?.reply.finalResult == Line("OK"))
        #expect(harness.replies.first?.reply.isError == false)
        #expect(harness.notifications.isEmpty)
    }

    /// The same bytes one per read give the same result.
    @Test func byteByByteReplyIsTheSame() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CSQ", timeout: 2000)
        harness.receiveBytewise(Self.csqChunks.joined(), at: 10)
        #expect(harness.replyLines == [["+CSQ: 23,99"]])
        #expect(harness.replies.first?.reply.finalResult == Line("OK"))
        #expect(harness.notifications.isEmpty)
    }

    /// Echo on, split echo and echo off read the same.
    @Test(arguments: [
        ["AT+CGMI\r\r\nACME\r\n\r\nOK\r\n"],
        ["AT+C", "GMI\r\r\nACME\r\n\r\nOK\r\n"],
        ["\r\nACME\r\n\r\nOK\r\n"],
    ])
    func echoIsDropped(chunks: [String]) {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CGMI")
        for (index, chunk) in chunks.enumerated() { harness.receive(chunk, at: index * 30) }
        #expect(harness.replyLines == [["ACME"]])
        #expect(harness.replies.first?.reply.finalResult == Line("OK"))
        #expect(harness.notifications.isEmpty)
    }

    /// URCs before and inside a reply are notifications, in arrival order.
    @Test func unsolicitedCodesAroundAndInsideAReply() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CSQ")
        harness.receive("\r\n+CMTI: \"SM\",3\r\n", at: 0)
        harness.receive("\r\n+CSQ: 23,99\r\n", at: 20)
        harness.receive("\r\nRING\r\n", at: 40)
        harness.receive("\r\nOK\r\n", at: 60)
        #expect(harness.replyLines == [["+CSQ: 23,99"]])
        #expect(harness.replies.first?.reply.finalResult == Line("OK"))
        #expect(harness.notificationTexts == ["+CMTI: \"SM\",3", "RING"])
    }

    /// A URC with another prefix between the information lines and `OK`.
    @Test func registrationCodeInsideAnotherReply() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CPMS?")
        harness.receive("\r\n+CPMS: \"SM\",3,30,\"SM\",3,30,\"SM\",3,30\r\n\r\n+CREG: 1\r\n\r\nOK\r\n", at: 5)
        #expect(harness.replyLines == [["+CPMS: \"SM\",3,30,\"SM\",3,30,\"SM\",3,30"]])
        #expect(harness.notificationTexts == ["+CREG: 1"])
    }

    /// With `AT+CREG?` in flight, the one-field URC shape is a
    /// notification and the `<n>,<stat>` answer is the reply.
    @Test func registrationURCVersusReadAnswer() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CREG?")
        harness.receive("\r\n+CREG: 1\r\n\r\n+CREG: 2,1\r\n\r\n+CREG: 5,\"00C3\",\"A1B2\",7\r\n\r\nOK\r\n", at: 5)
        #expect(harness.replyLines == [["+CREG: 2,1"]])
        #expect(harness.notificationTexts == ["+CREG: 1", "+CREG: 5,\"00C3\",\"A1B2\",7"])
    }

    /// The test form `AT+CREG=?` answers one field and is still a reply.
    @Test func registrationTestFormIsAReply() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CREG=?")
        harness.receive("\r\n+CREG: (0-2)\r\n\r\nOK\r\n", at: 5)
        #expect(harness.replyLines == [["+CREG: (0-2)"]])
    }

    /// A compound command line claims every prefix it has.
    @Test func compoundCommandClaimsEachPrefix() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CSQ;+CGMI")
        harness.receive("\r\n+CSQ: 20,99\r\n\r\n+CGMI: ACME\r\n\r\n+CMTI: \"SM\",4\r\n\r\nOK\r\n", at: 5)
        #expect(harness.replyLines == [["+CSQ: 20,99", "+CGMI: ACME"]])
        #expect(harness.notificationTexts == ["+CMTI: \"SM\",4"])
    }

    /// The late `+COPS` reply and its `OK` go to `AT+COPS?` as a
    /// late reply; `AT+CSQ` gets its own.
    @Test func lateReplyIsNotTheNextReply() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+COPS?", timeout: 300)
        harness.enqueue("AT+CSQ", timeout: 1000)
        harness.expire(at: 300)
        harness.expire(at: 900)
        #expect(harness.writtenText == "AT+COPS?\rAT+CSQ\r", "sent after 600 ms of quiet (twice the timeout)")
        harness.receive("\r\n+COPS: 0,0,\"NET\",7\r\n\r\nOK\r\n", at: 1150)
        harness.receive("\r\n+CSQ: 20,99\r\n\r\nOK\r\n", at: 1250)
        #expect(harness.timedOut == ["AT+COPS?"])
        #expect(harness.lateReplies.map(\.command) == ["AT+COPS?"])
        #expect(harness.lateReplies.first?.reply.lines == [Line("+COPS: 0,0,\"NET\",7")])
        #expect(harness.replies.map(\.command) == ["AT+CSQ"])
        #expect(harness.replyLines == [["+CSQ: 20,99"]])
        #expect(harness.notifications.isEmpty)
    }

    /// The bytes of `tether-sim --profile at-modem --latency 300` for `AT+CSQ` (timed
    /// out at 100 ms) and `AT` (sent at 250 ms, once the line was quiet): the echo
    /// `AT+CSQ` arrives while `AT` is in flight and begins AT+CSQ's late reply; it was
    /// taken as AT's reply ("incomplete reply to AT: AT+CSQ").
    @Test(arguments: [1000, 100])
    func lateEchoBeginsTheTimedOutCommandsLateReply(atTimeout: Int) {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CSQ", timeout: 100, at: 0)
        harness.enqueue("AT", timeout: atTimeout, at: 0)
        harness.expire(at: 100)
        harness.expire(at: 250)
        #expect(harness.writtenText == "AT+CSQ\rAT\r")
        harness.receive("AT+CSQ\r\r\n+CSQ: 20,99\r\n\r\nOK\r\n", at: 300)
        if atTimeout == 100 { harness.expire(at: 350) }
        harness.receive("AT\r\r\nOK\r\n", at: 550)
        #expect(harness.lateReplies.first?.command == "AT+CSQ")
        #expect(harness.lateReplies.first?.reply.lines == [Line("+CSQ: 20,99")])
        #expect(harness.lateReplies.first?.reply.finalResult == Line("OK"))
        let atReply = atTimeout == 100 ? harness.lateReplies.last : harness.replies.first
        #expect(atReply?.command == "AT")
        #expect(atReply?.reply.lines == [])
        #expect(atReply?.reply.finalResult == Line("OK"))
        #expect(harness.timedOut == (atTimeout == 100 ? ["AT+CSQ", "AT"] : ["AT+CSQ"]))
        #expect(!harness.events.contains { if case .partialReply = $0 { true } else { false } })
        #expect(harness.notifications.isEmpty)
    }

    /// `AT` timed out, then `AT` again: the device answers in order, so the first echo
    /// and `OK` are the timed-out command's late reply, the second the new command's.
    @Test func sameCommandAgainGetsTheSecondEchoAndOK() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT", timeout: 100, at: 0)
        harness.enqueue("AT", timeout: 1000, at: 0)
        harness.expire(at: 100)
        harness.expire(at: 250)
        #expect(harness.writtenText == "AT\rAT\r")
        harness.receive("AT\r\r\nOK\r\n", at: 300)
        harness.receive("AT\r\r\nOK\r\n", at: 550)
        #expect(harness.timedOut == ["AT"])
        #expect(harness.lateReplies.map(\.reply.finalResult) == [Line("OK")])
        #expect(harness.replies.map(\.reply.finalResult) == [Line("OK")])
        #expect(harness.notifications.isEmpty)
    }

    /// A slow modem: `ATI`'s echo came before its timeout, the rest after the next
    /// command was sent but before that command's echo; it is ATI's late reply, not
    /// AT+CGMI's reply.
    @Test func linesBeforeTheNextEchoFinishTheEchoedCommand() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("ATI", timeout: 200, at: 0)
        harness.enqueue("AT+CGMI", timeout: 1000, at: 0)
        harness.receive("ATI\r", at: 50)
        harness.expire(at: 200)
        harness.expire(at: 300)
        #expect(harness.writtenText == "ATI\rAT+CGMI\r")
        harness.receive("\r\nQuectel\r\nBG96\r\n\r\nOK\r\n", at: 400)
        harness.receive("AT+CGMI\r\r\nQuectel\r\n\r\nOK\r\n", at: 500)
        #expect(harness.lateReplies.map(\.command) == ["ATI"])
        #expect(harness.lateReplies.first?.reply.lines == [Line("Quectel"), Line("BG96")])
        #expect(harness.replies.map(\.command) == ["AT+CGMI"])
        #expect(harness.replyLines == [["Quectel"]])
        #expect(harness.notifications.isEmpty)
    }

    @Test(
        arguments: [
            ("+CME ERROR: 10", "SIM not inserted"), ("+CMS ERROR: 330", "SMSC address unknown"),
            ("+CME ERROR: SIM not inserted", nil), ("+CME ERROR: 777", nil), ("ERROR", nil),
        ] as [(String, String?)])
    func errorCodesAreErrorRepliesWithTheirMeaning(code: String, meaning: String?) {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CPIN?")
        harness.receive("\r\n\(code)\r\n", at: 5)
        let reply = harness.replies.first?.reply
        #expect(reply?.isError == true)
        #expect(reply?.finalResult == Line(code))
        #expect(reply?.errorDescription == meaning)
    }

    @Test(arguments: ["OK", "CONNECT", "CONNECT 115200"])
    func successCodesEndAReply(code: String) {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("ATD*99#")
        harness.receive("\r\n\(code)\r\n", at: 5)
        #expect(harness.replies.first?.reply.isError == false)
        #expect(harness.replies.first?.reply.finalResult == Line(code))
    }

    @Test(arguments: ["NO CARRIER", "BUSY", "NO DIALTONE", "NO ANSWER"])
    func callFailuresAreErrorReplies(code: String) {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("ATD123;")
        harness.receive("\r\n\(code)\r\n", at: 5)
        #expect(harness.replies.first?.reply.isError == true)
    }

    /// Free-form information lines (no prefix) belong to the reply; banners and `RING`
    /// never do; `--urc` prefixes are notifications too.
    @Test func freeFormLinesAndConfiguredURCs() {
        var harness = SessionHarness(ATDialect(unsolicitedPrefixes: ["^SYSSTART"]))
        harness.enqueue("ATI")
        harness.receive("ATI\r\r\nACME\r\nRDY\r\nModel X\r\n^SYSSTART\r\nRevision: 1.0\r\n\r\nOK\r\n", at: 5)
        #expect(harness.replyLines == [["ACME", "Model X", "Revision: 1.0"]])
        #expect(harness.notificationTexts == ["RDY", "^SYSSTART"])
    }

    /// A `--urc +XXX:` prefix still answers the command in flight that has it.
    @Test func configuredPrefixStillAnswersItsOwnCommand() {
        var harness = SessionHarness(ATDialect(unsolicitedPrefixes: ["+QIND:"]))
        harness.enqueue("AT+QIND?")
        harness.receive("\r\n+QIND: 1\r\n\r\nOK\r\n", at: 5)
        #expect(harness.replyLines == [["+QIND: 1"]])
        harness.receive("\r\n+QIND: \"csq\",20\r\n", at: 50)
        #expect(harness.notificationTexts == ["+QIND: \"csq\",20"])
    }

    /// A URC read in the same chunk as the final `OK` is kept.
    @Test func bytesReadWithTheFinalCodeAreKept() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT")
        harness.receive("\r\nOK\r\n\r\nRING\r\n\r\n+CLIP: \"+3312345\",145\r\n", at: 5)
        #expect(harness.replies.map(\.reply.finalResult) == [Line("OK")])
        #expect(harness.notificationTexts == ["RING", "+CLIP: \"+3312345\",145"])
    }

    /// NUL and non-UTF-8 bytes are kept exactly in a reply line.
    @Test func rawBytesAreKept() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CIMI")
        harness.receive([0x0D, 0x0A, 0x32, 0x00, 0x87, 0x33, 0x0D, 0x0A] + Array("\r\nOK\r\n".utf8), at: 5)
        #expect(harness.replies.first?.reply.lines.map(\.bytes) == [[0x32, 0x00, 0x87, 0x33]])
    }

    /// Pieces of a line longer than the limit, and its tail, are
    /// notifications; the final `OK` after it is recognised intact.
    @Test func overlongLineIsNeverAReplyLine() {
        var harness = SessionHarness(ATDialect(), maximumLineLength: 16)
        harness.enqueue("AT+DUMP")
        harness.receive(String(repeating: "A", count: 40) + "\r\nOK\r\n", at: 5)
        #expect(harness.replyLines == [[]])
        #expect(harness.replies.first?.reply.finalResult == Line("OK"))
        #expect(harness.notifications.map(\.bytes.count) == [16, 16, 8])
        #expect(harness.notifications.map(\.ending) == [.overlong, .overlong, .terminated])
    }
}
