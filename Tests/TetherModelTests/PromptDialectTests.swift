import Testing

@testable import TetherModel

/// The `prompt` dialect through the session.
@Suite struct PromptDialectTests {
    /// The prompt-prefixed echo is dropped; the prompt, which has no terminator, ends
    /// the reply once nothing has followed it for the partial quiet period (50 ms).
    @Test func promptPrefixedEcho() {
        var harness = SessionHarness(PromptDialect(prompt: "> "))
        harness.enqueue("ver")
        #expect(harness.writtenText == "ver\r")
        harness.receive("> ver\r\nfw 1.2.3\r\n> ", at: 5)
        #expect(harness.replies.isEmpty)
        harness.expire(at: 55)
        #expect(harness.replyLines == [["fw 1.2.3"]])
        #expect(harness.notifications.isEmpty)
    }

    /// The same bytes one per read: a prompt-looking start of the echo does not end the reply.
    @Test func promptPrefixedEchoBytewise() {
        var harness = SessionHarness(PromptDialect(prompt: "> "))
        harness.enqueue("ver")
        harness.receiveBytewise("> ver\r\nfw 1.2.3\r\n> ", at: 5)
        harness.expire(at: 55)
        #expect(harness.replyLines == [["fw 1.2.3"]])
    }

    /// A bootloader: a prompt left from before joins the echo; multi-line output with
    /// an empty line inside is kept in order; kernel lines can be set aside by pattern.
    @Test func bootloaderOutput() throws {
        let dialect = PromptDialect(notificationPattern: try LinePattern(#"^\[\s*\d+\.\d+\]"#))
        var harness = SessionHarness(dialect)
        harness.receive("U-Boot 2024.01\r\n=> ", at: 0)
        #expect(harness.notificationTexts == ["U-Boot 2024.01"])
        harness.enqueue("bdinfo", at: 10)
        harness.receive(
            "bdinfo\r\n\r\nboot_params = 0x00000000\r\n[   1.000] usb 1-1: new device\r\n\r\nDRAM bank   = 0x0\r\n\r\n=> ",
            at: 20)
        harness.expire(at: 70)
        #expect(harness.replyLines == [["boot_params = 0x00000000", "", "DRAM bank   = 0x0"]])
        #expect(harness.notificationTexts == ["U-Boot 2024.01", "[   1.000] usb 1-1: new device"])
    }

    @Test func errorPatternMarksTheReply() throws {
        var harness = SessionHarness(PromptDialect(errorPattern: try LinePattern("^Unknown command")))
        harness.enqueue("frob")
        harness.receive("frob\r\nUnknown command 'frob' - try 'help'\r\n=> ", at: 5)
        harness.expire(at: 55)
        #expect(harness.replies.first?.reply.isError == true)
    }

    /// A command that prints nothing: the echo, then the prompt.
    @Test func commandWithoutOutput() {
        var harness = SessionHarness(PromptDialect())
        harness.enqueue("setenv a 1")
        harness.receive("setenv a 1\r\n=> ", at: 5)
        harness.expire(at: 55)
        #expect(harness.replyLines == [[]])
    }

    /// A timed-out command's late output and prompt are its late reply, not the next
    /// command's reply.
    @Test func lateOutputEndsAtThePrompt() {
        var harness = SessionHarness(PromptDialect())
        harness.enqueue("sleep 2", timeout: 100)
        harness.enqueue("ver", timeout: 1000)
        harness.receive("sleep 2\r\n", at: 5)
        harness.expire(at: 100)
        harness.receive("slept\r\n=> ", at: 200)
        harness.expire(at: 450)
        #expect(harness.writtenText == "sleep 2\rver\r")
        harness.receive("ver\r\nfw 1.2.3\r\n=> ", at: 460)
        harness.expire(at: 510)
        #expect(harness.lateReplies.map(\.reply.lines) == [[Line("slept")]])
        #expect(harness.replyLines == [["fw 1.2.3"]])
    }
}
