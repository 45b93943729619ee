import Testing

@testable import TetherModel

/// Replies that tether cannot attribute are marked, never shifted silently, and the
/// pairing recovers (docs/DIALECTS.md, "Stray lines": unaccounted replies).
@Suite struct UnaccountedRepliesTests {
    /// A device that falls behind: `MEAS? k` (k from 0) answered `R k`, in order,
    /// 20 + 10·k ms after it was written — past the 100 ms timeout from k = 9, past the
    /// wait for a late reply (1.35 s) from k = 134 — up to k = 169, then 20 ms again (it
    /// caught up); `!T=21.4` every 25 ms all along, named by the notification pattern.
    /// A query is queued every 10 ms. Every reply and late reply shown is its
    /// command's or in doubt, and once the device is in step the replies are its own
    /// again, not in doubt.
    @Test func aDeviceFallingBehindGivesRepliesInDoubtNeverShifted() throws {
        var harness = SessionHarness(LineDialect(notificationPattern: try LinePattern("^!")))
        let count = 200
        var answers: [(at: Int, text: String)] = []
        var written = 0
        var lastAnswerAt = 0
        for time in 0..<400_000 {
            if time % 10 == 0, time / 10 < count { harness.enqueue("MEAS? \(time / 10)", timeout: 100, at: time) }
            if time % 25 == 0 { harness.receive("!T=21.4\r\n", at: time) }
            while let answer = answers.first, answer.at == time {
                answers.removeFirst()
                harness.receive(answer.text + "\r\n", at: time)
            }
            harness.expire(at: time)
            while written < harness.writes.count {
                let command = String(decoding: harness.writes[written], as: UTF8.self)
                written += 1
                let k = Int(command.split(separator: " ")[1].dropLast())!
                let latency = k < 170 ? 20 + 10 * k : 20
                lastAnswerAt = max(time + latency, lastAnswerAt + 1)
                answers.append((lastAnswerAt, "R \(k)"))
            }
        }
        func isOwn(_ command: String, _ reply: Reply) -> Bool {
            reply.lines.map(\.text) == ["R " + command.dropFirst("MEAS? ".count)]
        }
        let shown = harness.replies + harness.lateReplies
        let wrong = shown.filter { !isOwn($0.command, $0.reply) }
        let unmarked = wrong.filter { !$0.reply.isInDoubt }
        let doubted = shown.filter(\.reply.isInDoubt).count
        print(
            "falling behind: \(shown.count) replies shown (\(harness.lateReplies.count) late), \(wrong.count) not "
                + "their command's, \(unmarked.count) of those unmarked, \(doubted) in doubt")
        #expect(unmarked.isEmpty, "\(unmarked.map { ($0.command, $0.reply.lines.map(\.text)) })")
        #expect(!wrong.isEmpty, "the device must have fallen behind for this test to mean anything")
        let last = harness.replies.suffix(5)
        #expect(last.count == 5 && last.allSatisfy { isOwn($0.command, $0.reply) && !$0.reply.isInDoubt })
        #expect(harness.replies.count + harness.timedOut.count == count)
    }
}
