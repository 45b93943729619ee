import Testing

@testable import TetherModel

/// The SMS text prompt (3GPP TS 27.005 §3.5.1, §3.5.3) through the session: the command
/// line goes out, the text waits for `> ` (or a bare `>` line), and the reply is what
/// follows the text (docs/DIALECTS.md, "SMS text prompt").
@Suite struct ATTextPromptTests {
    static let command = "AT+CMGW=\"+15551230000\"\rHello\u{1A}"

    /// `\r\n> ` unterminated: the text is written once the line is quiet, its echo
    /// dropped, and `+CMGW: 5` / `OK` are the reply.
    @Test func textGoesOutAtThePromptAndTheFinalLinesAreTheReply() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue(Self.command, timeout: 5000)
        #expect(harness.writtenText == "AT+CMGW=\"+15551230000\"\r")
        harness.receive("AT+CMGW=\"+15551230000\"\r\r\n> ", at: 10)
        #expect(harness.writtenText == "AT+CMGW=\"+15551230000\"\r")
        harness.expire(at: 60)
        #expect(harness.writtenText == "AT+CMGW=\"+15551230000\"\rHello\u{1A}")
        harness.receive("Hello\u{1A}", at: 20)
        harness.receive("\r\n+CMGW: 5\r\n\r\nOK\r\n", at: 300)
        #expect(harness.replyLines == [["+CMGW: 5"]])
        #expect(harness.replies.first?.reply.finalResult == Line("OK"))
        #expect(harness.notifications.isEmpty)
        #expect(harness.timedOut.isEmpty)
    }

    /// Some modules print the prompt as a line of its own (`>` then CR LF), and echo off.
    @Test func aBarePromptLineOpensTheTextToo() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CMGS=\"+15551230000\"\rSee you\u{1A}", timeout: 5000)
        harness.receive("\r\n>\r\n", at: 10)
        #expect(harness.writtenText.hasSuffix("\rSee you\u{1A}"))
        harness.receive("\r\n+CMGS: 7\r\n\r\nOK\r\n", at: 200)
        #expect(harness.replyLines == [["+CMGS: 7"]])
        #expect(harness.notifications.isEmpty)
    }

    /// A text that reads `OK` has its echo dropped, so the module's own `OK` ends the reply.
    @Test func aTextThatReadsOKIsNotTheFinalResultCode() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CMGS=\"+1555\"\rOK\u{1A}", timeout: 5000)
        harness.receive("AT+CMGS=\"+1555\"\r\r\n> ", at: 10)
        harness.expire(at: 60)
        harness.receive("OK\u{1A}\r\n", at: 70)
        #expect(harness.replies.isEmpty)
        harness.receive("\r\n+CMGS: 8\r\n\r\nOK\r\n", at: 200)
        #expect(harness.replyLines == [["+CMGS: 8"]])
    }

    /// The module refusing the text: the error is the exchange's reply.
    @Test func aRefusedTextIsAnErrorReply() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue(Self.command, timeout: 5000)
        harness.receive("\r\n> ", at: 10)
        harness.expire(at: 60)
        harness.receive("\r\n+CMS ERROR: 304\r\n", at: 70)
        #expect(harness.replies.first?.reply.isError == true)
        #expect(harness.replies.first?.reply.finalResult == Line("+CMS ERROR: 304"))
    }

    /// Without a text the reply ends at the prompt (no timeout): the module waits for it.
    @Test func withoutATextTheReplyEndsAtThePrompt() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CMGS=\"+1555\"", timeout: 5000)
        harness.receive("\r\n> ", at: 10)
        #expect(harness.replies.isEmpty)
        harness.expire(at: 60)
        #expect(harness.replies.first?.reply.prompt?.text == "> ")
        #expect(harness.writtenText == "AT+CMGS=\"+1555\"\r")
    }

    /// A `>` that goes on with a line cut as overlong is no prompt, however the reads
    /// cut it: read byte by byte, `=> ` with a 1-byte line limit once wrote the text at
    /// the `>` (found by fuzzing, `Fuzz/Targets/session.swift`).
    @Test func aPromptNeverContinuesAnOverlongLine() {
        for split in [false, true] {
            var harness = SessionHarness(ATDialect(), maximumLineLength: 1)
            harness.enqueue("AT+CMGS=1\rHi\u{1A}", timeout: 5000)
            let bytes = Array("=> \r".utf8)
            if split {
                for byte in bytes { harness.receive([byte], at: 10) }
            } else {
                harness.receive(bytes, at: 10)
            }
            #expect(harness.writtenText == "AT+CMGS=1\r", "split: \(split)")
            // The empty tail after the pieces is the line's end: framing (`BlankLineTests`).
            #expect(harness.notifications.map(\.bytes) == [[0x3D], [0x3E], [0x20]], "split: \(split)")
        }
    }

    /// `> ` read as `>`, a quiet line, and then ` `: the text goes out at the `>`, and
    /// the space that follows is the rest of the prompt, not the start of the next line
    /// (found by fuzzing, `Fuzz/Targets/session.swift`: the space began the notification
    /// `  ERROR:` where whole reads showed ` ERROR:`).
    @Test func aPromptReadInTwoPiecesLeavesNoSpaceBehind() {
        let rest = " +CMGS: 7\r\n\r\nOK\r\n"
        for (prompt, after) in [("\r\n> ", [rest]), ("\r\n>", [" ", rest]), ("\r\n>", [" " + rest])] {
            var harness = SessionHarness(ATDialect())
            harness.enqueue("AT+CMGS=1\rHi\u{1A}", timeout: 5000)
            harness.receive(prompt, at: 10)
            harness.expire(at: 60)
            #expect(harness.writtenText == "AT+CMGS=1\rHi\u{1A}", "after: \(after)")
            for (index, piece) in after.enumerated() { harness.receive(piece, at: 70 + index) }
            #expect(harness.replyLines == [[" +CMGS: 7"]], "after: \(after)")
            #expect(harness.notifications.isEmpty, "after: \(after)")
        }
    }

    /// A space that is not the prompt's own stays: the `>` already had its space.
    @Test func aSpaceAfterAWholePromptIsKept() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("AT+CMGS=1\rHi\u{1A}", timeout: 5000)
        harness.receive("\r\n> ", at: 10)
        harness.expire(at: 60)
        harness.receive(" +CMGS: 7\r\n\r\nOK\r\n", at: 70)
        #expect(harness.replyLines == [[" +CMGS: 7"]])
    }

    /// A `>` that a read ends at, inside a line that goes on, is no prompt: read
    /// whole or byte by byte, `>n` is a line of the reply and no text is written (found
    /// by fuzzing, `Fuzz/Targets/session.swift`: read byte by byte, the text went out
    /// at the `>` and `n` was taken as its echo).
    @Test func aGreaterThanInsideALineIsNoPromptWhereverTheReadEnds() {
        for split in [false, true] {
            var harness = SessionHarness(ATDialect())
            harness.enqueue("AT+CMGS=1\rHi\u{1A}", timeout: 5000)
            let bytes = "\r\n>n\r\n\r\nERROR\r\n"
            if split { harness.receiveBytewise(bytes, at: 10) } else { harness.receive(bytes, at: 10) }
            #expect(harness.writtenText == "AT+CMGS=1\r", "split: \(split)")
            #expect(harness.replyLines == [[">n"]], "split: \(split)")
            #expect(harness.replies.first?.reply.isError == true, "split: \(split)")
        }
    }

    /// The command line's checks: a command line, CR and a text ending in Ctrl-Z or ESC
    /// is one command; other line breaks are still refused.
    @Test func aTextAfterACRIsNoLineBreak() {
        #expect(CommandText.problem(in: Self.command) == nil)
        #expect(CommandText.problem(in: "AT+CMGS=\"1\"\rnever mind\u{1B}") == nil)
        #expect(CommandText.problem(in: "AT+CMGS=\"1\"\rHello") == .lineBreak)
        #expect(CommandText.problem(in: "AT\nHello\u{1A}") == .lineBreak)
        #expect(CommandText.problem(in: "AT\rA\rB\u{1A}") == .lineBreak)
    }
}
