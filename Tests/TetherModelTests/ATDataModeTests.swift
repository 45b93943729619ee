import Testing

@testable import TetherModel

/// A modem's data mode (V.250 §5.2.3) through the session: after `CONNECT` bytes are
/// data until `NO CARRIER`, or `OK` after `+++` (docs/DIALECTS.md, "Data mode").
@Suite struct ATDataModeTests {
    static let frame: [UInt8] = [0x7E, 0xFF, 0x03, 0xC0, 0x21, 0x0D, 0x0A] + Array("OK\r\n".utf8) + [0x7E]

    private func data(_ harness: SessionHarness) -> [UInt8] {
        harness.events.flatMap { event -> [UInt8] in
            if case .data(let bytes) = event { return bytes }
            return []
        }
    }

    private func failures(_ harness: SessionHarness) -> [(RequestID, RequestFailure)] {
        harness.events.compactMap { if case .failed(let id, _, let failure) = $0 { (id, failure) } else { nil } }
    }

    private func commandModeLines(_ harness: SessionHarness) -> [String] {
        harness.events.compactMap { if case .commandMode(let line) = $0 { line.text } else { nil } }
    }

    /// `CONNECT 115200`, a PPP frame with CR, LF and `OK` in it in the same read, then
    /// `NO CARRIER`: the frame is data, exactly; the next command waits for command mode.
    @Test func bytesAfterConnectAreDataUntilNoCarrier() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("ATD*99#")
        harness.enqueue("AT", at: 1)
        harness.receive(Array("\r\nCONNECT 115200\r\n".utf8) + Self.frame, at: 10)
        #expect(harness.replies.first?.reply.finalResult == Line("CONNECT 115200"))
        #expect(harness.writtenText == "ATD*99#\r")
        harness.receive(Array(Self.frame.prefix(3)), at: 20)
        harness.receive(Array("\r\nNO CAR".utf8), at: 30)
        #expect(commandModeLines(harness).isEmpty)
        harness.receive(Array("RIER\r\n".utf8), at: 40)
        #expect(data(harness) == Self.frame + Self.frame.prefix(3))
        #expect(commandModeLines(harness) == ["NO CARRIER"])
        #expect(harness.notifications.isEmpty)
        #expect(harness.writtenText == "ATD*99#\rAT\r")
        harness.receive("\r\nOK\r\n", at: 50)
        #expect(harness.replies.count == 2)
    }

    /// A `CONNECT` that both a timed-out `ATZ` and the `ATD` in flight would take is
    /// decided at `ATD`'s deadline (the device cannot be that late): data mode begins
    /// then, outside a read, and the unterminated bytes that came after `CONNECT` are
    /// data, as they are when data mode begins in a read (found by fuzzing,
    /// `Fuzz/Targets/session.swift`: they stayed in the framer and came out as a line at
    /// hang-up, while the bytes after them were data).
    @Test func bytesAfterAConnectDecidedAtTheDeadlineAreData() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("ATZ", timeout: 10)
        harness.expire(at: 10)
        harness.enqueue("ATD*99#", timeout: 2000, at: 10)
        harness.expire(at: 250)
        #expect(harness.writtenText == "ATZ\rATD*99#\r")
        harness.receive("\r\nCONNECT\r\n", at: 255)
        harness.receive("~\u{7D}#", at: 260)
        harness.expire(at: 2250)
        #expect(harness.replies.first?.reply.finalResult == Line("CONNECT"))
        harness.receive("\u{7E}", at: 2260)
        harness.close(at: 2300)
        #expect(data(harness) == Array("~\u{7D}#\u{7E}".utf8))
        #expect(harness.notifications.isEmpty)
    }

    /// `+++` written, then the module's `OK`: command mode again; an `OK` inside data
    /// before the escape is data.
    @Test func theEscapeThenOKReturnsToCommandMode() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("ATO")
        harness.receive("\r\nCONNECT\r\n", at: 10)
        harness.receive("\r\nOK\r\n", at: 20)
        #expect(commandModeLines(harness).isEmpty)
        harness.session.noteWrite(Array("+++".utf8))
        harness.receive("\r\nOK\r\n", at: 1200)
        #expect(commandModeLines(harness) == ["OK"])
        #expect(data(harness) == Array("\r\nOK\r\n".utf8))
        #expect(harness.notificationTexts == ["OK"], "the escape's OK is a line a script can expect")
    }

    /// Commands wait in the queue while the module is in data mode, but not beyond
    /// their timeouts: `+++` sent as a command (not written at once) and `ATH` after it
    /// each time out, unsent, their timeout after they were queued.
    @Test func aCommandWaitingForCommandModeFailsAtItsTimeout() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("ATD*99#")
        harness.receive("\r\nCONNECT 115200\r\n", at: 10)
        let escape = harness.enqueue("+++", timeout: 1000, at: 100)
        let hangUp = harness.enqueue("ATH", timeout: 3000, at: 100)
        #expect(harness.session.nextDeadline == harness.at(1100))
        harness.expire(at: 1100)
        #expect(failures(harness).map(\.0) == [escape])
        #expect(harness.session.nextDeadline == harness.at(3100))
        harness.expire(at: 3099)
        #expect(failures(harness).count == 1)
        harness.expire(at: 3100)
        #expect(failures(harness).map(\.0) == [escape, hangUp])
        #expect(failures(harness).map(\.1) == [.timedOut(.milliseconds(1000)), .timedOut(.milliseconds(3000))])
        #expect(harness.writtenText == "ATD*99#\r")
        #expect(harness.session.nextDeadline == nil)
    }

    /// Bytes that may begin `NO CARRIER` are data once the line is quiet.
    @Test func heldBytesAreDataOnceQuiet() {
        var harness = SessionHarness(ATDialect())
        harness.enqueue("ATD*99#")
        harness.receive("\r\nCONNECT\r\nabcNO", at: 10)
        #expect(data(harness) == Array("abc".utf8))
        harness.expire(at: 100)
        #expect(data(harness) == Array("abcNO".utf8))
    }
}
