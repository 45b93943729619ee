import Testing

@testable import TetherModel

/// The `scpi` dialect through the session.
@Suite struct SCPIDialectTests {
    /// `*RST` completes when written, `*OPC?` times out and its late `1` is a
    /// late reply, `*IDN?` gets the identity.
    @Test func lateReplyAfterAWaitStep() {
        var harness = SessionHarness(SCPIDialect())
        harness.enqueue("*RST", timeout: 1000, at: 0)
        #expect(harness.replies.map(\.command) == ["*RST"])
        harness.enqueue("*OPC?", timeout: 500, at: 0)
        harness.expire(at: 500)
        harness.receive("1\n", at: 1000)
        harness.enqueue("*IDN?", timeout: 1000, at: 2000)
        harness.receive("ACME,DMM-2,0001,2.0\n", at: 2005)
        harness.expire(at: 2100)
        #expect(harness.writtenText == "*RST\n*OPC?\n*IDN?\n")
        #expect(harness.timedOut == ["*OPC?"])
        #expect(harness.lateReplies.map(\.command) == ["*OPC?"])
        #expect(harness.lateReplies.first?.reply.lines == [Line("1")])
        #expect(harness.replies.map(\.command) == ["*RST", "*IDN?"])
        #expect(harness.replyLines.last == ["ACME,DMM-2,0001,2.0"])
    }

    /// Tight variant: `*IDN?` is sent once the silent line has been quiet
    /// for 250 ms (here at once: nothing came since `*OPC?` was sent); the late `1`
    /// arrives while `*IDN?` waits and is held as contested; the identity 100 ms later
    /// decides that `1` was `*OPC?`'s late reply.
    @Test func lateReplyTightVariant() {
        var harness = SessionHarness(SCPIDialect())
        harness.enqueue("*OPC?", timeout: 500, at: 0)
        harness.enqueue("*IDN?", timeout: 1000, at: 0)
        harness.expire(at: 500)
        #expect(harness.writtenText == "*OPC?\n*IDN?\n", "a silent device costs one timeout")
        harness.receive("1\n", at: 600)
        #expect(harness.replies.isEmpty && harness.lateReplies.isEmpty, "contested until the next line")
        harness.receive("ACME,DMM-2,0001,2.0\n", at: 700)
        #expect(harness.lateReplies.map(\.reply.lines) == [[Line("1")]])
        #expect(harness.replies.map(\.command) == ["*IDN?"])
        #expect(harness.replyLines == [["ACME,DMM-2,0001,2.0"]])
        #expect(harness.replies.first?.reply.isInDoubt == false)
    }

    /// A contested line with no line after it before the deadline was the in-flight
    /// command's reply (the earlier command's answer was lost): given, in doubt, once
    /// the line has been quiet as after a late reply (twice the timeout: the earlier
    /// answer may still come).
    @Test func contestedLineAtTheDeadlineIsTheReplyInDoubt() {
        var harness = SessionHarness(SCPIDialect())
        harness.enqueue("*OPC?", timeout: 500, at: 0)
        harness.enqueue("*IDN?", timeout: 1000, at: 0)
        harness.expire(at: 500)
        harness.receive("ACME,DMM-2,0001,2.0\n", at: 520)
        harness.expire(at: 1500)
        #expect(harness.replies.isEmpty, "held while the earlier answer may come")
        harness.expire(at: 3500)
        #expect(harness.replyLines == [["ACME,DMM-2,0001,2.0"]])
        #expect(harness.replies.first?.reply.isInDoubt == true)
        #expect(harness.lateReplies.isEmpty)
        #expect(harness.timedOut == ["*OPC?"])
    }

    @Test(arguments: [
        ("VOLT 5", 0), ("VOLT?", 1), ("MEAS:VOLT?;CURR?", 2), (":VOLT 5;:OUTP ON;OUTP?", 1),
        ("DISP:TEXT \"A?B;C\"", 0),
    ])
    func queriesAreCountedPerUnit(command: String, count: Int) {
        #expect(SCPIDialect.queryCount(in: command) == count)
        #expect(SCPIDialect().expectsReply(to: command) == (count > 0))
    }

    /// A compound query is answered on one `;`-joined line or on one line per query.
    @Test(arguments: [["5.000;1.000\n"], ["5.000\n", "1.000\n"]])
    func compoundQueryAnswers(chunks: [String]) {
        var harness = SessionHarness(SCPIDialect())
        harness.enqueue("VOLT?;CURR?")
        for chunk in chunks { harness.receive(chunk, at: 5) }
        #expect(harness.replyLines == [chunks.map { String($0.dropLast()) }])
        harness.receive("stray\n", at: 10)
        #expect(harness.notificationTexts == ["stray"])
    }

    /// `--check-errors`: after a command, `SYST:ERR?` is asked until code 0, and each
    /// entry makes the command's reply an error reply.
    @Test func checkErrorsAfterACommand() {
        var harness = SessionHarness(SCPIDialect(checksErrors: true))
        harness.enqueue("VOLT 99")
        #expect(harness.writtenText == "VOLT 99\nSYST:ERR?\n")
        harness.receive("-222,\"Data out of range\"\n", at: 5)
        #expect(harness.writtenText == "VOLT 99\nSYST:ERR?\nSYST:ERR?\n")
        harness.receive("-113,\"Undefined header\"\n", at: 10)
        harness.receive("+0,\"No error\"\n", at: 15)
        #expect(harness.writtenText == "VOLT 99\nSYST:ERR?\nSYST:ERR?\nSYST:ERR?\n")
        let reply = harness.replies.first?.reply
        #expect(harness.replies.map(\.command) == ["VOLT 99"])
        #expect(reply?.isError == true)
        #expect(reply?.lines.map(\.text) == ["-222,\"Data out of range\"", "-113,\"Undefined header\""])
    }

    /// `--check-errors` after a query asks once its answer is in; no error → a plain reply.
    @Test func checkErrorsAfterAQuery() {
        var harness = SessionHarness(SCPIDialect(checksErrors: true))
        harness.enqueue("MEAS:VOLT?")
        #expect(harness.writtenText == "MEAS:VOLT?\n")
        harness.receive("2.09E+1\n", at: 5)
        #expect(harness.writtenText == "MEAS:VOLT?\nSYST:ERR?\n")
        harness.receive("0,\"No error\"\n", at: 10)
        #expect(harness.replyLines == [["2.09E+1"]])
        #expect(harness.replies.first?.reply.isError == false)
    }

    /// A device that never empties its queue is asked at most ``SCPIDialect/maximumErrorQueries`` times.
    @Test func errorQueriesAreBounded() {
        var harness = SessionHarness(SCPIDialect(checksErrors: true))
        harness.enqueue("VOLT 99")
        for time in 1...100 where harness.replies.isEmpty {
            harness.receive("-350,\"Queue overflow\"\n", at: time)
        }
        #expect(harness.replies.first?.reply.lines.count == SCPIDialect.maximumErrorQueries)
    }

    /// A timed-out check reports what it had as the late reply and asks nothing more.
    @Test func timedOutCheckAsksNoMore() {
        var harness = SessionHarness(SCPIDialect(checksErrors: true))
        harness.enqueue("VOLT 99", timeout: 100)
        harness.expire(at: 100)
        harness.receive("-222,\"Data out of range\"\n", at: 200)
        #expect(harness.writtenText == "VOLT 99\nSYST:ERR?\n")
        #expect(harness.lateReplies.map(\.reply.lines) == [[Line("-222,\"Data out of range\"")]])
    }
}
