import Testing

@testable import TetherModel

/// The `line` dialect with the exact bytes of the device cases about reply matching.
@Suite struct LineDialectCaseTests {
    /// A CR-only device; `--eol cr` sends CR, and CR-terminated replies and
    /// notifications are separate lines with the default EOL too.
    @Test(arguments: [Terminator.cr, .lf])
    func crOnlyTerminator(eol: Terminator) {
        var harness = SessionHarness(LineDialect(terminator: eol, notificationPattern: try! LinePattern("^T=")))
        harness.receive("T=21.0\r", at: 0)
        harness.enqueue("MEAS?", at: 10)
        #expect(harness.writes == [Array("MEAS?".utf8) + eol.bytes])
        harness.receive("12.50\rT=21.0\r", at: 20)
        #expect(harness.replyLines == [["12.50"]])
        #expect(harness.notificationTexts == ["T=21.0", "T=21.0"])
    }

    /// Bytes that are not UTF-8 are kept exactly; the listing comes out in order.
    @Test func nonUTF8BytesAreKept() {
        var harness = SessionHarness(LineDialect())
        harness.enqueue("M20")
        harness.receive(
            Array("Begin file list\r\n".utf8) + [0x2D, 0x87, 0x44, 0x99, 0x2F, 0x0D, 0x0A]
                + Array("MODEL~1.GCO 1234\r\nEnd file list\r\nok\r\n".utf8), at: 5)
        #expect(harness.replyLines == [["Begin file list"]])
        #expect(
            harness.notifications.map(\.bytes) == [
                [0x2D, 0x87, 0x44, 0x99, 0x2F], Array("MODEL~1.GCO 1234".utf8), Array("End file list".utf8),
                Array("ok".utf8),
            ])
    }

    /// A NUL does not cut the reply short; a leading NUL in a banner is kept.
    @Test func nulBytesAreKept() {
        var harness = SessionHarness(LineDialect())
        harness.receive(Array("\u{0}Ready\r\n".utf8), at: 0)
        // The banner was a line nobody took: the session listens 150 ms from it, and the
        // reply settles.
        harness.enqueue("ID?", at: 160)
        harness.receive(Array("AB\u{0}CD\r\n".utf8), at: 170)
        harness.expire(at: 300)
        #expect(harness.replies.first?.reply.lines.map(\.bytes) == [[0x41, 0x42, 0x00, 0x43, 0x44]])
        #expect(harness.notifications.map(\.bytes) == [[0x00] + Array("Ready".utf8)])
    }

    /// 0x11 and 0x13 in a line are data.
    @Test func flowControlBytesAreData() {
        var harness = SessionHarness(LineDialect())
        harness.enqueue("Q")
        harness.receive([0x41, 0x13, 0x42, 0x11, 0x43, 0x0A], at: 5)
        #expect(harness.replies.first?.reply.lines.map(\.bytes) == [[0x41, 0x13, 0x42, 0x11, 0x43]])
    }

    /// A line longer than the limit is never a reply; the next line is.
    @Test func overlongLineIsNotTheReply() {
        var harness = SessionHarness(LineDialect(), maximumLineLength: 8)
        harness.enqueue("DUMP?")
        harness.receive(String(repeating: "A", count: 20) + "\nOK\n", at: 5)
        #expect(harness.replyLines == [["OK"]])
        #expect(harness.notifications.map(\.bytes.count) == [8, 8, 4])
    }

    /// `--notify-pattern` lines are notifications even while a query is pending;
    /// `--error-pattern` marks error replies.
    @Test func configuredPatterns() throws {
        let dialect = LineDialect(
            notificationPattern: try LinePattern("^#"), errorPattern: try LinePattern("^(NAK|FAIL)"))
        var harness = SessionHarness(dialect)
        harness.enqueue("SET 1")
        harness.receive("# tick\nNAK 3\n", at: 5)
        #expect(harness.notificationTexts == ["# tick"])
        #expect(harness.replies.first?.reply.isError == true)
    }
}
