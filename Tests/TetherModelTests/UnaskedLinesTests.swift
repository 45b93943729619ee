import Testing

@testable import TetherModel

/// What a device says unasked is learned and no longer taken as a reply
/// (docs/DIALECTS.md, "Stray lines": learned shapes).
@Suite struct UnaskedLinesTests {
    static let identity = "TETHER,THERMO-1,SIM0001,1.0"

    /// A thermometer printing `T=21.4C` every 40 ms unasked, answering `*IDN?` 25 ms
    /// after it is written, asked 20 times with nothing told of its readings, the
    /// session stepped one millisecond at a time. With `--listen 150` (what the
    /// simulator prints for such a device) and by default alike it gives the right
    /// reply to at least 18: by default the reading before the first command shows
    /// that the device speaks unasked, and the listen after it learns the readings'
    /// shape. Both figures are printed.
    @Test(arguments: [nil, 150])
    func aThermometerSpeakingUnaskedGetsItsRepliesRight(listen: Int?) {
        var harness = SessionHarness(LineDialect(listenPeriod: listen.map { .milliseconds($0) }))
        harness.session.holdRequests()
        for _ in 0..<20 { harness.enqueue("*IDN?", timeout: 1000) }
        var answerAt: [Int] = []
        var written = 0
        for time in 0..<6000 {
            if time == 5 { harness.release(at: time) }
            if time % 40 == 0 { harness.receive("T=21.\(time % 7)C\r\n", at: time) }
            if answerAt.first == time {
                answerAt.removeFirst()
                harness.receive(Self.identity + "\r\n", at: time)
            }
            harness.expire(at: time)
            while written < harness.writes.count {
                written += 1
                answerAt.append(time + 25)
            }
        }
        let right = harness.replyLines.filter { $0 == [Self.identity] }.count
        let wrong = harness.replies.filter { $0.reply.lines.map(\.text) != [Self.identity] }
        let unmarked = wrong.filter { !$0.reply.isInDoubt }.count
        let option = listen.map { "--listen \($0)" } ?? "default"
        print(
            "unasked lines (\(option)): \(right) of 20 *IDN? replies right, \(unmarked) wrong unmarked "
                + "(T= every 40 ms, answer after 25 ms)")
        #expect(harness.replies.count == 20)
        #expect(harness.timedOut.isEmpty)
        #expect(right >= 18)
        #expect(unmarked == 0)
    }

    /// Shapes: digit runs (with sign and decimal point) are one `9`, blanks one space.
    @Test func aShapeKeepsTheTextAroundTheNumbers() {
        let shape = { (text: String) in UnaskedLines.shape(of: Line(text)).map { String(decoding: $0, as: UTF8.self) } }
        #expect(shape("T=21.4C") == "T=9C")
        #expect(shape("T=-3.0C") == "T=9C")
        #expect(shape("HUM  45 %") == "HUM 9 %")
        #expect(shape("TETHER,ENV-1,SIM0001,1.0") == "TETHER,ENV9,SIM9,9")
        #expect(shape("") == nil)
    }

    /// Signs, points and blanks at the edges of a run: a sign or point begins a number
    /// only before a digit, a point or a sign before a digit goes on with one, and a run
    /// of blanks and tabs is one space; a line matches the shape built from it.
    @Test func runsEndWhereTheirBytesStop() {
        let cases = [
            ("-.5", "-9"), ("5-3", "9"), ("5-", "9-"), ("5.", "9"), ("1.2.3", "9"), ("a - b", "a - b"),
            ("x+", "x+"), ("\t 5\t", " 9 "), ("+7 C", "9 C"),
            (
                "0000000001 the quick brown fox jumps...",
                "9 the quick brown fox jumps..."
            ),
        ]
        for (text, expected) in cases {
            #expect(UnaskedLines.shape(of: Line(text)).map { String(decoding: $0, as: UTF8.self) } == expected)
            #expect(UnaskedLines.line(Line(text), hasShape: Array(expected.utf8)))
        }
    }

    /// A line is matched against a learned shape without building its own: the match
    /// agrees with the shape built, and a shape that is only a prefix, or longer, is not it.
    @Test func aLineMatchesOnlyItsOwnShape() {
        let matches = { (text: String, shape: String) in UnaskedLines.line(Line(text), hasShape: Array(shape.utf8)) }
        #expect(matches("T=21.4C", "T=9C"))
        #expect(matches("HUM  45 %", "HUM 9 %"))
        #expect(matches("TETHER,ENV-1,SIM0001,1.0", "TETHER,ENV9,SIM9,9"))
        #expect(!matches("T=21.4C", "T=9"))
        #expect(!matches("T=21.4", "T=9C"))
        #expect(!matches("T=21.4C", "T=9C "))
        #expect(!matches("", ""))
        #expect(!UnaskedLines.line(Line(Array("#15hello".utf8), payloadRange: 3..<8), hasShape: Array("#9hello".utf8)))
    }

    /// A reply shaped like the unasked lines: once a request times out while such a line
    /// was turned away, the shape is forgotten for good and replies are taken again. The
    /// first timed-out request still contests the line, and as the device could be that
    /// late, the second request times out too and the line, with no line after it, is
    /// the late reply in doubt (docs/DIALECTS.md, "After a timeout": contested line).
    @Test func aReplyShapedLikeTheStraysIsGivenBack() {
        var harness = SessionHarness(LineDialect(listenPeriod: .milliseconds(150)))
        harness.receive("21.4\r\n", at: 0)
        harness.receive("21.5\r\n", at: 40)
        harness.enqueue("MEAS?", timeout: 200, at: 50)
        harness.receive("21.6\r\n", at: 60)
        harness.expire(at: 250)
        #expect(harness.timedOut == ["MEAS?"])
        harness.expire(at: 1000)
        harness.enqueue("MEAS?", timeout: 200, at: 1000)
        harness.receive("21.7\r\n", at: 1010)
        harness.expire(at: 1300)
        harness.expire(at: 2500)
        #expect(harness.timedOut == ["MEAS?", "MEAS?"])
        #expect(harness.lateReplies.map { $0.reply.lines.map(\.text) } == [["21.7"]], "\(harness.events)")
        #expect(harness.lateReplies.first?.reply.isInDoubt == true)
        #expect(harness.notificationTexts == ["21.4", "21.5", "21.6"])
    }
}
