import Testing

@testable import TetherModel

/// Pending text: the unterminated bytes after the last line, reported once the line has
/// been quiet for ``Session/pendingTextQuietPeriod``, and consumed by a reader that
/// matched a prompt in them.
@Suite struct PendingTextTests {
    /// The pending texts reported, in order.
    private func pendingTexts(_ harness: SessionHarness) -> [String] {
        harness.events.compactMap { if case .pendingText(let line, _) = $0 { line.text } else { nil } }
    }

    /// The start of the last pending text reported.
    private func lastStart(_ harness: SessionHarness) -> Int? {
        harness.events.last { if case .pendingText = $0 { true } else { false } }.flatMap {
            if case .pendingText(_, let start) = $0 { start } else { nil }
        }
    }

    /// A line-dialect session that received `text` at 0 ms and reported it as pending
    /// text at 100 ms, and that text's start.
    private func reported(_ text: String) throws -> (harness: SessionHarness, start: Int) {
        var harness = SessionHarness(LineDialect())
        harness.receive(text, at: 0)
        harness.expire(at: 100)
        return (harness, try #require(lastStart(harness)))
    }

    /// The login board's banner and prompt, reported, and the prompt consumed at 150 ms.
    private func loginConsumed() throws -> SessionHarness {
        let session = try reported("\r\nPoky (Yocto) 4.0 qemux86 ttyS0\r\n\r\nqemux86 login: ")
        var harness = session.harness
        let consumed = harness.consumePendingText(start: session.start, count: "qemux86 login: ".utf8.count, at: 150)
        #expect(consumed)
        return harness
    }

    /// Consumes `text`, the pending text reported last, at `ms`.
    private func consumeLast(_ text: String, in harness: inout SessionHarness, at ms: Int) throws {
        let start = try #require(lastStart(harness))
        let consumed = harness.consumePendingText(start: start, count: text.utf8.count, at: ms)
        #expect(consumed)
    }

    /// A flashing tool prints `Erasing flash: `, a `.` every 300 ms ten times, then
    /// `done\r\n`: the text is reported 100 ms after each piece, whole each time, and
    /// the line once, as a notification, when it ends.
    @Test func flashingProgressIsReportedAfterEachQuietPeriod() {
        var harness = SessionHarness(LineDialect())
        harness.receive("Erasing flash: ", at: 0)
        #expect(harness.session.nextDeadline == harness.at(100))
        harness.expire(at: 99)
        #expect(pendingTexts(harness).isEmpty)
        harness.expire(at: 100)
        #expect(pendingTexts(harness) == ["Erasing flash: "])
        #expect(harness.session.nextDeadline == nil, "nothing more to time until more bytes come")
        for dot in 1...10 {
            harness.receive(".", at: dot * 300)
            harness.expire(at: dot * 300 + 100)
        }
        harness.receive("done\r\n", at: 3300)
        harness.expire(at: 3400)
        let expected = (0...10).map { "Erasing flash: " + String(repeating: ".", count: $0) }
        #expect(pendingTexts(harness) == expected)
        #expect(harness.notificationTexts == ["Erasing flash: ..........done"])
        #expect(harness.session.nextDeadline == nil)
        guard case .pendingText(let line, let start) = harness.events.first else {
            Issue.record("the first event is not the pending text")
            return
        }
        #expect(line.ending == .unterminated)
        #expect(start == 0)
    }

    /// The hot path: many complete lines per read set no deadline and report nothing
    /// pending; a read ending mid-line that is completed within the quiet period
    /// reports nothing either.
    @Test func completeLinesAndQuickCompletionsReportNothing() {
        var harness = SessionHarness(LineDialect())
        harness.receive(String(repeating: "!N 12345\r\n", count: 1000), at: 0)
        #expect(harness.session.nextDeadline == nil)
        harness.receive("!N 1", at: 1)
        harness.receive("23\r\n", at: 60)
        harness.expire(at: 500)
        #expect(pendingTexts(harness).isEmpty)
        #expect(harness.notificationTexts.count == 1001)
    }

    /// While the port is not read (an observer is behind) no quiet is counted: bytes
    /// may be waiting unread. The quiet counts again from when reading resumes.
    @Test func aReaderThatIsHeldBackIsNotAQuietLine() {
        var harness = SessionHarness(LineDialect())
        harness.receive("0000000001 the quick brown", at: 0)
        harness.session.noteReading(false, now: harness.at(10))
        #expect(harness.session.nextDeadline == nil)
        harness.expire(at: 500)
        harness.session.noteReading(true, now: harness.at(600))
        #expect(harness.session.nextDeadline == harness.at(700))
        harness.receive(" fox\n", at: 601)
        #expect(pendingTexts(harness).isEmpty)
        #expect(harness.notificationTexts == ["0000000001 the quick brown fox"])
    }

    /// Control sequences are removed from the pending text (a coloured prompt), as
    /// from lines; the stream offset names where it starts.
    @Test func pendingTextIsCleanedAndNamedByItsOffset() {
        var harness = SessionHarness(LineDialect())
        harness.receive("booted\r\n\u{1B}[1;32mroot@qemux86\u{1B}[0m:~# ", at: 0)
        harness.expire(at: 100)
        #expect(pendingTexts(harness) == ["root@qemux86:~# "])
        #expect(lastStart(harness) == 8)
    }

    /// The login example: a script that matched `login: ` consumes the prompt, so the
    /// line the echo of `root` ends holds no old prompt; matching `Password: ` (which
    /// came after `root` was sent) ends `root`'s request, whose echo was its only line,
    /// and `secret` is sent after it.
    @Test func consumedPromptsEndTheConsoleCommands() throws {
        var harness = try loginConsumed()
        harness.enqueue("root", at: 150)
        harness.enqueue("secret", at: 150)
        harness.receive("root\r\nPassword: ", at: 160)
        harness.expire(at: 260)
        #expect(pendingTexts(harness) == ["qemux86 login: ", "Password: "])
        try consumeLast("Password: ", in: &harness, at: 270)
        harness.expire(at: 1000)  // the reply settles: a stray line (the banner) was seen
        #expect(harness.replies.map(\.command) == ["root"])
        #expect(harness.replyLines == [[]])
        #expect(harness.writtenText == "root\nsecret\n")
        // The banner's blank lines are framing (`BlankLineTests`).
        #expect(harness.notificationTexts == ["Poky (Yocto) 4.0 qemux86 ttyS0"])
        #expect(harness.timedOut.isEmpty)
    }

    /// A trial's query file (`=~ # $` then `uname =~ ^Linux$`): `uname` was answered at
    /// once but its reply reported 300 ms later. The replies settle (the banner was a
    /// stray line) for 1.5 times the longest round trip, and the round trips of `root`
    /// and `secret` ran to the moment the wait consumed the next prompt, 100 ms of
    /// pending-text quiet and more after its last byte. They run to that byte.
    @Test func consumedPromptEndsTheRoundTripAtItsLastByte() throws {
        var harness = try loginConsumed()
        harness.enqueue("secret", at: 150)
        harness.receive("\r\n", at: 151)
        harness.receive("root@qemux86:~# ", at: 160)
        harness.expire(at: 260)
        try consumeLast("root@qemux86:~# ", in: &harness, at: 300)
        harness.expire(at: 315)  // 1.5 × 10 ms of settling
        harness.enqueue("uname", at: 320)
        harness.receive("uname\r\nLinux\r\nroot@qemux86:~# ", at: 320)
        harness.expire(at: 350)  // at most twice the settling, with a prompt pending
        let roundTrips = harness.events.compactMap {
            if case .replied(_, let command, _, let roundTrip) = $0 { (command, roundTrip) } else { nil }
        }
        #expect(roundTrips.map(\.0) == ["secret", "uname"], "\(harness.events)")
        #expect(roundTrips.first?.1 == .milliseconds(10))
    }

    /// Without the consumption, the prompt's line began before the command: never its
    /// reply (the rule for `line` and `scpi`), a notification.
    @Test func unconsumedPromptLineIsANotification() {
        var harness = SessionHarness(LineDialect())
        harness.receive("qemux86 login: ", at: 0)
        harness.enqueue("root", timeout: 500, at: 150)
        harness.receive("root\r\n", at: 160)
        #expect(harness.replyLines.isEmpty)
        #expect(harness.notificationTexts == ["qemux86 login: root"])
    }

    /// A part of the pending text consumed (the match ended inside it); control
    /// sequences among the consumed bytes go with them, the rest is reported again.
    @Test func partOfThePendingTextIsConsumed() throws {
        let session = try reported("\u{1B}[1mlogin:\u{1B}[0m rest")
        var harness = session.harness
        let start = session.start
        let consumed = harness.consumePendingText(start: start, count: 7, at: 150)
        #expect(consumed)
        harness.receive("!", at: 200)
        harness.expire(at: 300)
        #expect(pendingTexts(harness) == ["login: rest", "rest!"])
        #expect(lastStart(harness) == start + 15)
        harness.receive("\n", at: 400)
        #expect(harness.notificationTexts == ["rest!"])
    }

    /// Consuming fails, changing nothing, once the text is no longer pending: its line
    /// ended, another began, or fewer bytes are left than asked for.
    @Test func staleConsumptionChangesNothing() throws {
        let session = try reported("login: ")
        var harness = session.harness
        let start = session.start
        let tooMany = harness.consumePendingText(start: start, count: 8, at: 100)
        #expect(!tooMany)
        let wrongStart = harness.consumePendingText(start: start + 1, count: 1, at: 100)
        #expect(!wrongStart)
        harness.receive("x\r\nlogin: ", at: 150)
        let afterTheLineEnded = harness.consumePendingText(start: start, count: 7, at: 150)
        #expect(!afterTheLineEnded)
        harness.receive("\r\n", at: 200)
        #expect(harness.notificationTexts == ["login: x", "login: "])
    }
}
