import Testing

@testable import TetherModel

/// A blank line is framing, never a notification nor a reply nor a reason for doubt
/// (docs/DIALECTS.md, "Rules every dialect shares"): the CR LF that heads a code, the
/// CR of a LF CR line end, the line end after a prompt. The bytes stay in the byte
/// events (the transcript, `PayloadEndToEndTests`).
@Suite struct BlankLineTests {
    @Test func blankLinesWhileIdleAreNoNotifications() {
        var harness = SessionHarness(LineDialect())
        harness.receive("boot\n\n\nready\n", at: 0)
        #expect(harness.notificationTexts == ["boot", "ready"])
    }

    /// The exact input of a modem on the default `line` dialect: `monitor --count 1`
    /// must show `RING`, not the empty line before it.
    @Test func theCRLFBeforeARingIsFraming() {
        var harness = SessionHarness(LineDialect())
        harness.receive("\r\nRING\r\n", at: 0)
        harness.receiveBytewise("\r\nRING\r\n", at: 10)
        #expect(harness.notificationTexts == ["RING", "RING"])
    }

    /// A board that ends its lines with LF CR (`Model: pcDuino3\n\r`): no blank line
    /// after each, however the reads cut the pair.
    @Test func lfCRLineEndsGiveNoBlankLines() {
        var harness = SessionHarness(LineDialect())
        harness.receive("Model: pcDuino3\n\rBoard: sun7i\n\r", at: 0)
        harness.receiveBytewise("Model: pcDuino3\n\r", at: 10)
        #expect(harness.notificationTexts == ["Model: pcDuino3", "Board: sun7i", "Model: pcDuino3"])
    }

    /// The line end a console sends after its prompt, once the reply ended there.
    @Test func theLineEndAfterAPromptIsFraming() {
        var harness = SessionHarness(PromptDialect())
        harness.enqueue("version")
        harness.receive("version\r\nU-Boot 2023.01\r\n=> ", at: 5)
        harness.expire(at: 100)
        #expect(harness.replyLines == [["U-Boot 2023.01"]])
        harness.receive("\r\n", at: 110)
        harness.expire(at: 500)
        #expect(harness.notifications.isEmpty)
    }

    /// The line end right after a line cut at the maximum length ends that line.
    @Test func theEmptyTailOfAnOverlongLineIsFraming() {
        var harness = SessionHarness(LineDialect(), maximumLineLength: 4)
        harness.receive("abcd\r\nefghij\n", at: 0)
        #expect(harness.notificationTexts == ["abcd", "efgh", "ij"])
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
