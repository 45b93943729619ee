import Testing

@testable import TetherModel

/// A prompt counts only once the line stays quiet after it, so an output line that
/// begins with the prompt's text never ends a reply, wherever the reads split the output
/// (docs/DIALECTS.md, "`prompt`").
@Suite struct PromptQuietTests {
    /// A configuration file a shell's `cat` prints: 41 lines, most beginning `# `, the
    /// shell's own prompt.
    static let configFile: [String] =
        ["# /etc/example.conf: written by hand"]
        + (1...36).map { "# option \($0): see the manual, section \($0 % 7)" }
        + ["", "# the end", "enabled=yes", "level=3"]

    /// U-Boot output whose lines begin with its prompt, `=> ` (a script echoed back).
    static let bootScript: [String] = (1...10).map { "=> setenv step\($0) 'run boot\($0)'" }

    /// Lines beginning with text a shell's prompt pattern matches (a saved transcript).
    static let transcript: [String] = (1...6).map { "root@box:~# echo line \($0)" } + ["done"]

    /// Feeds the echo, then `output` and `prompt` split into two reads at `split`, 1 ms
    /// apart, then lets the line go quiet; returns the harness.
    static func run(
        _ dialect: PromptDialect, command: String, output: [String], prompt: String, split: Int
    ) -> SessionHarness {
        var harness = SessionHarness(dialect)
        harness.enqueue(command, at: 0)
        harness.enqueue("next", at: 0)
        let bytes = Array((command + "\r\n" + output.map { $0 + "\r\n" }.joined() + prompt).utf8)
        harness.receive(Array(bytes[..<split]), at: 5)
        harness.receive(Array(bytes[split...]), at: 6)
        harness.expire(at: 6 + 50)
        return harness
    }

    static func check(
        _ dialect: PromptDialect, command: String, output: [String], prompt: String
    ) {
        let total = (command + "\r\n" + output.map { $0 + "\r\n" }.joined() + prompt).utf8.count
        for split in 0...total {
            let harness = run(dialect, command: command, output: output, prompt: prompt, split: split)
            #expect(harness.replyLines == [output], "split at \(split)")
            #expect(harness.notifications.isEmpty, "split at \(split)")
            #expect(harness.writtenText == command + "\rnext\r", "split at \(split)")
        }
    }

    @Test func aFileWhoseLinesBeginWithTheShellPromptIsWholeAtEverySplit() {
        Self.check(PromptDialect(prompt: "# "), command: "cat /etc/example.conf", output: Self.configFile, prompt: "# ")
    }

    @Test func ubootOutputBeginningWithItsPromptIsWholeAtEverySplit() {
        Self.check(PromptDialect(), command: "printenv script", output: Self.bootScript, prompt: "=> ")
    }

    @Test func aPromptPatternCountsOnlyOnceQuietAtEverySplit() throws {
        let dialect = PromptDialect(promptPattern: try LinePattern("^[a-z]+@[^:]+:[^#$]*[#$] $"))
        Self.check(dialect, command: "cat log.txt", output: Self.transcript, prompt: "root@box:/tmp# ")
    }

    /// Every byte its own read: the `# ` at the start of each line is never quiet.
    @Test func everyByteItsOwnRead() {
        var harness = SessionHarness(PromptDialect(prompt: "# "))
        harness.enqueue("cat /etc/example.conf")
        harness.enqueue("next")
        harness.receiveBytewise(
            "cat /etc/example.conf\r\n" + Self.configFile.map { $0 + "\r\n" }.joined() + "# ", at: 5)
        #expect(harness.replies.isEmpty)
        #expect(harness.writtenText == "cat /etc/example.conf\r")
        harness.expire(at: 55)
        #expect(harness.replyLines == [Self.configFile])
        #expect(harness.writtenText == "cat /etc/example.conf\rnext\r")
    }

    /// The bytes the issue measured: a read that ended `… 0d 0a 23 20` did not end the reply.
    @Test func aReadEndingInLineEndAndPromptIsNotTheEnd() {
        var harness = SessionHarness(PromptDialect(prompt: "# "))
        harness.enqueue("cat f")
        harness.receive("cat f\r\n# first\r\n# ", at: 5)
        harness.receive("second\r\n# ", at: 7)
        #expect(harness.replies.isEmpty)
        harness.expire(at: 57)
        #expect(harness.replyLines == [["# first", "# second"]])
        #expect(harness.replies.first?.reply.prompt?.text == "# ")
    }

    /// The pattern is matched where it ends the text: a line that merely contains a
    /// match does not end the reply, even when quiet.
    @Test func aPromptPatternMustEndTheText() throws {
        var harness = SessionHarness(PromptDialect(promptPattern: try LinePattern("[#$] ")))
        harness.enqueue("make")
        harness.receive("make\r\nstep 1 # of 2 ...", at: 5)
        harness.expire(at: 55)
        #expect(harness.replies.isEmpty)
        harness.receive(" done\r\nroot@box:~/src# ", at: 60)
        harness.expire(at: 110)
        #expect(harness.replyLines == [["step 1 # of 2 ... done"]])
        #expect(harness.replies.first?.reply.prompt?.text == "root@box:~/src# ")
    }

    /// With a pattern, the echo after a prompt the pattern matches is still the echo.
    @Test func theEchoAfterAPatternPromptIsDropped() throws {
        var harness = SessionHarness(PromptDialect(promptPattern: try LinePattern("^[a-z]+@[^:]+:[^#$]*[#$] $")))
        harness.receive("root@box:~# ", at: 0)
        harness.enqueue("uname", at: 10)
        harness.receive("uname\r\nLinux\r\nroot@box:~# ", at: 15)
        harness.expire(at: 65)
        #expect(harness.replyLines == [["Linux"]])
        #expect(harness.notifications.isEmpty)
    }
}
