import Testing

@testable import TetherModel

/// A device slower than the timeout answers in order: each late answer is the late reply
/// of its own command, never the reply of the command in flight when it came
/// (docs/DIALECTS.md, "After a timeout").
@Suite struct LateReplyOrderTests {
    /// The answers of the `env` profile, with the readings it prints every second.
    private static let answers = [
        "*IDN?": "TETHER,ENV-1,SIM0001,1.0", "HUM?": "41.5", "TEMP?": "21.49", "SETP?": "22.0",
    ]

    /// `tether query --sim --latency LATENCY '*IDN?' 'HUM?' 'TEMP?'` (1000 ms timeout):
    /// the device answers each command LATENCY ms after it was written, `\r\n`-ended,
    /// and prints `!READING temp=21.53 hum=41.4` at 992 ms and every second after
    /// (named by `^!`), as in the trial that showed `TEMP? → TETHER,ENV-1,…  [in doubt]`
    /// and then `41.5` and `21.49` unlabelled.
    private static func run(latency: Int, commands: [String], closingAt end: Int = 20_000) throws -> SessionHarness {
        var harness = SessionHarness(LineDialect(notificationPattern: try LinePattern("^!")))
        for command in commands { harness.enqueue(command, timeout: 1000, at: 0) }
        var due: [(at: Int, text: String)] = []
        var written = 0
        for time in 0..<end {
            if time % 1000 == 992 { harness.receive("!READING temp=21.53 hum=41.4\r\n", at: time) }
            while let answer = due.first, answer.at == time {
                due.removeFirst()
                harness.receive(answer.text + "\r\n", at: time)
            }
            harness.expire(at: time)
            while written < harness.writes.count {
                let command = String(decoding: harness.writes[written].dropLast(), as: UTF8.self)
                written += 1
                due.append((time + latency, answers[command] ?? "ERR -113"))
            }
        }
        harness.close(at: end)
        return harness
    }

    @Test func threeQueriesToADeviceAnsweringThreeSecondsLate() throws {
        let harness = try Self.run(latency: 3000, commands: ["*IDN?", "HUM?", "TEMP?"])
        #expect(harness.timedOut == ["*IDN?", "HUM?", "TEMP?"])
        #expect(harness.replies.isEmpty)
        #expect(harness.lateReplies.map(\.command) == ["*IDN?", "HUM?", "TEMP?"])
        let lines = harness.lateReplies.map { $0.reply.lines.map(\.text) }
        #expect(lines == [["TETHER,ENV-1,SIM0001,1.0"], ["41.5"], ["21.49"]])
        #expect(harness.lateReplies.allSatisfy { !$0.reply.isInDoubt })
        #expect(harness.notificationTexts.allSatisfy { $0.hasPrefix("!READING") })
        #expect(!harness.events.contains { if case .settling = $0 { true } else { false } })
    }

    /// `query` without `--linger` closes the device once `TEMP?` timed out (3.25 s), with
    /// `*IDN?`'s identity held and no line after it yet: by order it is `*IDN?`'s late
    /// reply, in doubt, never a bare line.
    @Test func closedBeforeTheNextAnswerTheHeldLineIsTheOldestsLateReplyInDoubt() throws {
        let harness = try Self.run(latency: 3000, commands: ["*IDN?", "HUM?", "TEMP?"], closingAt: 3300)
        #expect(harness.timedOut == ["*IDN?", "HUM?", "TEMP?"])
        #expect(harness.lateReplies.map(\.command) == ["*IDN?"])
        #expect(harness.lateReplies.first?.reply.lines == [Line("TETHER,ENV-1,SIM0001,1.0")])
        #expect(harness.lateReplies.first?.reply.isInDoubt == true)
        #expect(harness.notificationTexts.allSatisfy { $0.hasPrefix("!READING") })
    }

    /// Whatever the latency past the timeout, every reply and late reply shown is its
    /// own command's or marked in doubt, and no answer is left a bare notification.
    @Test(arguments: [1300, 1500, 2000, 2500, 3000])
    func everyAnswerIsItsOwnCommands(latency: Int) throws {
        let commands = ["*IDN?", "HUM?", "TEMP?", "SETP?"]
        let harness = try Self.run(latency: latency, commands: commands)
        let shown = harness.replies + harness.lateReplies
        let wrong = shown.filter { $0.reply.lines.map(\.text) != [Self.answers[$0.command]] && !$0.reply.isInDoubt }
        #expect(wrong.isEmpty, "\(wrong.map { ($0.command, $0.reply.lines.map(\.text)) })")
        #expect(Set(shown.map(\.command)) == Set(commands))
        #expect(harness.notificationTexts.allSatisfy { $0.hasPrefix("!READING") })
    }
}
