import Testing

@testable import TetherModel

/// The rules for what real devices send (docs/DIALECTS.md), one test per example:
/// control sequences, a prompt inside output, AT line noise, vendor final codes,
/// resynchronisation by echo, SCPI error entries and stray lines.
@Suite struct RealDeviceDialectTests {
    @Test func controlSequencesAreRemovedFromTheText() {
        let line = ControlSequences.cleaned(Line(Array("\u{1B}[1;31mFAIL\u{1B}[0m".utf8)))
        #expect(line.text == "FAIL")
        #expect(line.receivedBytes == Array("\u{1B}[1;31mFAIL\u{1B}[0m".utf8))
        #expect(ControlSequences.removed(from: Array("\u{1B}]0;title\u{07}ok\u{1B}(B\u{1B}[".utf8)) == Array("ok".utf8))
        #expect(ControlSequences.cleaned(Line("plain")).exactBytes == nil)
    }

    /// A shell with bracketed paste: the reply is exactly `["lab-7"]`, with the full
    /// prompt at once and with `$ ` once the line is quiet.
    @Test(arguments: ["pi@lab:~$ ", "$ "])
    func shellWithBracketedPaste(prompt: String) {
        var harness = SessionHarness(PromptDialect(prompt: prompt))
        harness.enqueue("hostname", at: 0)
        harness.receive("hostname\r\n\u{1B}[?2004l\rlab-7\r\n\u{1B}[?2004hpi@lab:~$ ", at: 5)
        harness.expire(at: 100)
        #expect(harness.replyLines == [["lab-7"]])
        #expect(harness.notifications.isEmpty)
    }

    /// U-Boot: `=> ` inside output does not end the reply, whatever the reads.
    @Test func promptInsideOutput() {
        var harness = SessionHarness(PromptDialect())
        harness.enqueue("printenv bootcmd", at: 0)
        harness.receiveBytewise("printenv bootcmd\r\nbootcmd=run a => b", at: 5)
        harness.expire(at: 60)
        harness.receive("\r\n=> ", at: 85)
        harness.expire(at: 135)
        harness.enqueue("version", at: 140)
        harness.receive("version\r\nU-Boot 2024.01\r\n=> ", at: 145)
        harness.expire(at: 195)
        #expect(harness.replyLines == [["bootcmd=run a => b"], ["U-Boot 2024.01"]])
    }

    @Test(arguments: [[UInt8]([0xFF]), [0x00]])
    func atEchoBehindLineNoise(noise: [UInt8]) {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CGMI", at: 0)
        harness.receive(noise + Array("AT+CGMI\r\r\nQuectel\r\n\r\nOK\r\n".utf8), at: 5)
        #expect(harness.replyLines == [["Quectel"]])
        #expect(harness.replies.first?.reply.finalResult?.text == "OK")
        #expect(harness.notifications.map(\.bytes) == [noise])
    }

    @Test func espFailIsAFinalErrorCode() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CWJAP=\"lab\",\"x\"", at: 0)
        harness.receive("AT+CWJAP=\"lab\",\"x\"\r\r\nWIFI DISCONNECT\r\n", at: 5)
        harness.receive("\r\nFAIL\r\n", at: 205)
        #expect(harness.replies.first?.reply.isError == true)
        #expect(harness.replies.first?.reply.finalResult?.text == "FAIL")
        #expect(harness.timedOut.isEmpty)
    }

    @Test func vendorFinalCodes() {
        var harness = SessionHarness(ATDialect(extraSuccessCodes: ["SEND OK"], extraErrorCodes: ["+QIERR:"]))
        harness.enqueue("AT+X", at: 0)
        harness.receive("\r\nSEND OK\r\n", at: 5)
        harness.enqueue("AT+Y", at: 10)
        harness.receive("\r\n+QIERR: 552\r\n", at: 15)
        #expect(harness.replies.map(\.reply.isError) == [false, true])
    }

    /// `AT+CIFSR` times out without a final code; `AT`'s echo closes it, so `AT` gets
    /// its own `OK`.
    @Test func echoOfTheNextCommandClosesTheOwedReply() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CIFSR", timeout: 300, at: 0)
        harness.enqueue("AT", timeout: 300, at: 0)
        harness.receive("AT+CIFSR\r\r\n+CIFSR:STAIP,\"0.0.0.0\"\r\n", at: 5)
        harness.expire(at: 300)
        #expect(harness.writtenText == "AT+CIFSR\rAT\r")
        harness.receive("AT\r\r\nOK\r\n", at: 310)
        #expect(harness.timedOut == ["AT+CIFSR"])
        #expect(harness.replies.map(\.command) == ["AT"])
        #expect(harness.replies.first?.reply.finalResult?.text == "OK")
        #expect(harness.lateReplies.isEmpty)
    }

    /// Lines a timed-out command takes during the wait are reported, never dropped.
    @Test func nothingReceivedDuringTheWaitVanishes() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("ATI", timeout: 200, at: 0)
        harness.enqueue("AT", timeout: 1000, at: 0)
        harness.receiveBytewise("ATI\r", at: 130)
        harness.expire(at: 200)
        harness.receiveBytewise("\r\nQuectel\r\n", at: 500)
        harness.expire(at: 800)
        harness.receiveBytewise("BG96\r\n\r\nOK\r\n", at: 900)
        harness.receive("AT\r\r\nOK\r\n", at: 1000)
        #expect(harness.lateReplies.map(\.reply.lines) == [[Line("Quectel"), Line("BG96")]])
        #expect(harness.replies.map(\.command) == ["AT"])
    }

    @Test(arguments: ["0,\"No error\"", "+0,\"No error\"", "0 No Error", "+0 NO ERROR"])
    func emptyErrorQueueFormats(entry: String) {
        var harness = SessionHarness(SCPIDialect(checksErrors: true))
        harness.enqueue("VOLT 5", at: 0)
        harness.receive(entry + "\n", at: 5)
        #expect(harness.replies.first?.reply.isError == false)
    }

    @Test func severalQueuedErrorsInOrder() {
        var harness = SessionHarness(SCPIDialect(checksErrors: true))
        harness.enqueue("VOLT 99;CURR 9", at: 0)
        harness.receive("-222,\"Data out of range\"\n", at: 5)
        harness.receive("-221,\"Settings conflict\"\n", at: 10)
        harness.receive("0,\"No error\"\n", at: 15)
        #expect(harness.replyLines == [["-222,\"Data out of range\"", "-221,\"Settings conflict\""]])
        #expect(harness.replies.first?.reply.isError == true)
    }

    /// A line-oriented device that repeats a reply line after the next command was
    /// sent: once a stray was seen, replies settle; the reply the repeat was taken for
    /// is in doubt and every later command gets its own reply.
    @Test func aRepeatedLineShiftsNoLaterReply() {
        var harness = SessionHarness(LineDialect())
        harness.receive("banner\r\n", at: 0)
        var time = 160  // after the 150 ms listen the banner's evidence starts
        for index in 1...20 {
            harness.enqueue("ECHO \(index)", timeout: 1000, at: time)
            harness.receive("R \(index)\r\n", at: time + 3)
            if index == 7 { harness.receive("R \(index)\r\n", at: time + 5) }
            time += 30
            harness.expire(at: time)
        }
        let pairs = harness.replies.map { ($0.command.dropFirst(5), $0.reply.lines.first?.text.dropFirst(2)) }
        #expect(pairs.count == 20)
        #expect(pairs.allSatisfy { $0.0 == $0.1 ?? "" })
        #expect(harness.replies.filter(\.reply.isInDoubt).map(\.command) == ["ECHO 7"])
    }

    /// A repeat whose first bytes came in the same read as the reply began before the
    /// next command was sent, so it cannot be that command's reply: a notification,
    /// and from then on replies settle.
    @Test func aLineBegunBeforeTheCommandIsNotItsReply() {
        var harness = SessionHarness(LineDialect())
        harness.enqueue("ECHO 1", at: 0)
        harness.enqueue("ECHO 2", at: 0)
        harness.receive("R 1\r\nR", at: 3)
        #expect(harness.writtenText == "ECHO 1\nECHO 2\n")
        harness.receive(" 1\r\n", at: 4)
        harness.receive("R 2\r\n", at: 6)
        harness.expire(at: 50)
        #expect(harness.replyLines == [["R 1"], ["R 2"]])
        #expect(harness.notificationTexts == ["R 1"])
        #expect(harness.replies.allSatisfy { !$0.reply.isInDoubt })
    }

    /// A notification begun before the command was sent is still a notification, and
    /// the reply after it is the command's (found by the garbage-and-split fault test).
    @Test func aNotificationBegunBeforeTheCommandLeavesTheReplyAlone() {
        var harness = SessionHarness(LineDialect(notificationPattern: try! LinePattern("^!")))
        harness.receive("!READ", at: 0)
        harness.enqueue("SETP?", at: 1)
        harness.receive("ING temp=21\r\n22.0\r\n", at: 3)
        #expect(harness.replyLines == [["22.0"]])
        #expect(harness.notificationTexts == ["!READING temp=21"])
    }
}

/// What makes replies settle (line, scpi with a notification pattern).
@Suite struct SettlingTriggerTests {
    private func replies(_ harness: SessionHarness) -> [String] {
        harness.events.compactMap { event in
            if case .replied(_, let command, let reply, _) = event {
                "\(command) → \(reply.lines.map(\.text).joined())\(reply.isInDoubt ? " (in doubt)" : "")"
            } else {
                nil
            }
        }
    }

    /// The benchmark device answers every `MEAS:VOLT?` with the same line: each reply
    /// is reported as soon as it is complete (it used to start settling, 2 ms a query).
    @Test func theSameAnswerToTheSameCommandIsReportedAtOnce() throws {
        var harness = SessionHarness(LineDialect(notificationPattern: try LinePattern("^!")))
        for round in 0..<3 {
            harness.enqueue("MEAS:VOLT?", at: round * 10)
            harness.receive("+1.23456789E+00\n", at: round * 10 + 1)
        }
        #expect(replies(harness) == Array(repeating: "MEAS:VOLT? → +1.23456789E+00", count: 3))
        #expect(harness.session.nextDeadline == nil, "a reply is held to settle")
    }

    /// The same reading to another command is a repeat: from then on replies settle.
    @Test func theSameAnswerToAnotherCommandStartsSettling() throws {
        var harness = SessionHarness(LineDialect(notificationPattern: try LinePattern("^!")))
        harness.enqueue("A", at: 0)
        harness.receive("T=21.4\n", at: 1)
        harness.enqueue("B", at: 10)
        harness.receive("T=21.4\n", at: 11)
        #expect(replies(harness) == ["A → T=21.4"])
        #expect(harness.session.nextDeadline != nil, "B's reply settles")
    }

    /// `OK` to two set commands (`SETP 20`, `RATE 500`) is an acknowledgement, no
    /// repeat: `connect` noted `'OK' came again, to RATE 500` and settled every reply
    /// after. A reply with no digit in it never repeats; each is reported at once.
    @Test func theSameAcknowledgementToTwoCommandsIsNoRepeat() throws {
        var harness = SessionHarness(LineDialect(notificationPattern: try LinePattern("^!")))
        harness.enqueue("SETP 20", at: 0)
        harness.receive("OK\n", at: 1)
        harness.enqueue("RATE 500", at: 10)
        harness.receive("OK\n", at: 11)
        #expect(replies(harness) == ["SETP 20 → OK", "RATE 500 → OK"])
        #expect(!harness.events.contains { if case .settling = $0 { true } else { false } })
        #expect(harness.session.nextDeadline == nil, "no reply is held to settle")
    }

    /// `tether connect --sim` (`env`), then `FOO` and `BAR` typed: both answered
    /// `ERR -113,"Undefined header"\r\n`, which started settling with the note
    /// `'ERR -113,"Undefined header"' came again, to BAR`. The same error to two
    /// commands is no repeat: no settling, each reply at once. Also `scpi` with
    /// `--check-errors` (`scpi-psu`), where the error is the `SYST:ERR?` answer.
    @Test func theSameErrorToTwoCommandsIsNoRepeat() throws {
        var line = SessionHarness(LineDialect(notificationPattern: try LinePattern("^!")))
        line.enqueue("FOO", at: 0)
        line.receive("ERR -113,\"Undefined header\"\r\n", at: 1)
        line.enqueue("BAR", at: 1000)
        line.receive("ERR -113,\"Undefined header\"\r\n", at: 1003)
        var scpi = SessionHarness(SCPIDialect(checksErrors: true))
        scpi.enqueue("FOO", at: 0)
        scpi.receive("-113,\"Undefined header\"\n", at: 8)
        scpi.receive("0,\"No error\"\n", at: 9)
        scpi.enqueue("BAR", at: 1000)
        scpi.receive("-113,\"Undefined header\"\n", at: 1005)
        scpi.receive("0,\"No error\"\n", at: 1006)
        for harness in [line, scpi] {
            #expect(harness.replies.map(\.command) == ["FOO", "BAR"])
            #expect(harness.replies.allSatisfy { $0.reply.isError && !$0.reply.isInDoubt })
            #expect(!harness.events.contains { if case .settling = $0 { true } else { false } })
            #expect(harness.session.nextDeadline == nil, "no reply is held to settle")
        }
    }
}
