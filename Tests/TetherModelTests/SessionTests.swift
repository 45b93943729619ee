import Testing

@testable import TetherModel

/// The session state machine, driven with explicit times (no I/O, no clock).
@Suite struct SessionTests {
    let start = ContinuousClock.now
    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    static let environmentDialect = LineDialect(notificationPattern: try! LinePattern("^!"))

    private func events(_ actions: [SessionAction]) -> [SessionEvent] {
        actions.compactMap { if case .emit(let event) = $0 { event } else { nil } }
    }

    private func writes(_ actions: [SessionAction]) -> [[UInt8]] {
        actions.compactMap { if case .write(let bytes) = $0 { bytes } else { nil } }
    }

    private func replies(_ events: [SessionEvent]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for case .replied(_, let command, let reply, _) in events { result[command] = reply.lines.map(\.text) }
        return result
    }

    @Test func queryWritesTheCommandAndGetsOneLine() {
        var session = Session(dialect: LineDialect())
        let (id, actions) = session.enqueue("*IDN?", timeout: .seconds(1), now: at(0))
        #expect(writes(actions) == [Array("*IDN?\n".utf8)])
        let received = events(session.receive(Array("ACME,X,1,2\r\n".utf8), now: at(5)))
        #expect(
            received == [
                .replied(id, command: "*IDN?", reply: Reply(lines: [Line("ACME,X,1,2")]), roundTrip: .milliseconds(5))
            ])
        #expect(!session.isBusy)
    }

    /// A reply split across reads is one line.
    @Test func splitReplyIsOneLine() {
        var session = Session(dialect: LineDialect())
        _ = session.enqueue("MEAS?", timeout: .seconds(2), now: at(0))
        #expect(events(session.receive(Array("12.3".utf8), now: at(1))).isEmpty)
        #expect(replies(events(session.receive(Array("45\n".utf8), now: at(150)))) == ["MEAS?": ["12.345"]])
    }

    @Test func notificationBetweenQueryAndReply() {
        var session = Session(dialect: Self.environmentDialect)
        _ = session.enqueue("TEMP?", timeout: .seconds(1), now: at(0))
        let received = events(session.receive(Array("!READING temp=21\r\n22.50\r\n".utf8), now: at(3)))
        #expect(received.first == .notification(Line("!READING temp=21")))
        #expect(replies(received) == ["TEMP?": ["22.50"]])
    }

    /// The bytes read with a reply are kept, and back-to-back requests pair
    /// with their replies in order. (The case's batch variant, where the device waits
    /// for both commands before answering, needs pipelining; tether keeps one request
    /// in flight, so the second is sent when the first is answered.)
    @Test func bytesAfterTheReplyAreKept() {
        var session = Session(dialect: LineDialect())
        _ = session.enqueue("READ", timeout: .seconds(1), now: at(0))
        var received = events(session.receive(Array("V=1.234\nT=21.5\nP=101".utf8), now: at(1)))
        received += events(session.receive(Array("3\n".utf8), now: at(50)))
        #expect(replies(received) == ["READ": ["V=1.234"]])
        #expect(
            received.filter { if case .notification = $0 { true } else { false } } == [
                .notification(Line("T=21.5")), .notification(Line("P=1013")),
            ])

        var batch = Session(dialect: LineDialect())
        let (first, sentFirst) = batch.enqueue("READ", timeout: .seconds(1), now: at(0))
        let (second, sentSecond) = batch.enqueue("READ", timeout: .seconds(1), now: at(0))
        #expect(writes(sentFirst + sentSecond).count == 1, "one request in flight at a time")
        let firstReply = batch.receive(Array("V=1\n".utf8), now: at(5))
        #expect(writes(firstReply) == [Array("READ\n".utf8)], "the second READ goes out once the first is answered")
        let secondReply = batch.receive(Array("V=2\n".utf8), now: at(9))
        let pairs = events(firstReply + secondReply).compactMap { event -> (RequestID, String)? in
            if case .replied(let id, _, let reply, _) = event { (id, reply.lines[0].text) } else { nil }
        }
        #expect(pairs.map(\.0) == [first, second])
        #expect(pairs.map(\.1) == ["V=1", "V=2"])
    }

    @Test func echoIsDropped() {
        var session = Session(dialect: LineDialect(terminator: .cr))
        _ = session.enqueue("ver", timeout: .seconds(1), now: at(0))
        #expect(
            replies(events(session.receive(Array("ver\r\nfw 1.2.3\r\n".utf8), now: at(5)))) == ["ver": ["fw 1.2.3"]])
    }

    /// Three times over, the late `1` is held as contested until the identity decides it; once the device has answered late, a timeout is followed
    /// by twice the timeout of quiet, so the next late `1` lands while nothing waits.
    @Test func lateReplyNeverAnswersTheNextRequest() {
        var session = Session(dialect: LineDialect())
        let (opc, _) = session.enqueue("*OPC?", timeout: .milliseconds(500), now: at(0))
        let (idn, queued) = session.enqueue("*IDN?", timeout: .seconds(1), now: at(0))
        #expect(writes(queued).isEmpty)
        let expired = session.expire(now: at(500))
        #expect(events(expired).first == .failed(opc, command: "*OPC?", failure: .timedOut(.milliseconds(500))))
        #expect(writes(expired) == [Array("*IDN?\n".utf8)], "nothing came: a silent line costs one timeout")
        #expect(events(session.receive(Array("1\n".utf8), now: at(600))).isEmpty)
        let answer = events(session.receive(Array("ACME,DMM-2,0001,2.0\n".utf8), now: at(700)))
        #expect(
            answer == [
                .lateReply(command: "*OPC?", reply: Reply(lines: [Line("1")])),
                .replied(
                    idn, command: "*IDN?", reply: Reply(lines: [Line("ACME,DMM-2,0001,2.0")]),
                    roundTrip: .milliseconds(200)),
            ])
        _ = session.enqueue("*OPC?", timeout: .milliseconds(500), now: at(700))
        _ = session.enqueue("*IDN?", timeout: .seconds(1), now: at(700))
        #expect(writes(session.expire(now: at(1200))).isEmpty, "the device answers late: wait")
        let late = events(session.receive(Array("1\n".utf8), now: at(1300)))
        #expect(late == [.lateReply(command: "*OPC?", reply: Reply(lines: [Line("1")]))])
        #expect(writes(session.expire(now: at(2200))).isEmpty, "quiet for twice the timeout: 1000 ms")
        #expect(writes(session.expire(now: at(2300))) == [Array("*IDN?\n".utf8)])
    }

    /// A device that never answers costs one timeout per command (no quiet wait
    /// beyond the timeout: nothing has arrived since the command was sent).
    @Test func silentDeviceCostsOneTimeoutPerCommand() {
        var session = Session(dialect: ATDialect())
        var sentAt: [Int] = []
        for command in ["AT", "ATI", "AT+CSQ", "AT+CGMI"] {
            if !writes(session.enqueue(command, timeout: .seconds(1), now: at(0)).1).isEmpty { sentAt.append(0) }
        }
        for time in stride(from: 0, through: 6000, by: 10) where !writes(session.expire(now: at(time))).isEmpty {
            sentAt.append(time)
        }
        #expect(sentAt == [0, 1000, 2000, 3000])
    }

    @Test func resyncWaitIsBoundedOnABusyLine() {
        var session = Session(dialect: Self.environmentDialect)
        _ = session.enqueue("A?", timeout: .milliseconds(100), now: at(0))
        _ = session.enqueue("B?", timeout: .milliseconds(100), now: at(0))
        _ = session.expire(now: at(100))
        var sent: [[UInt8]] = []
        for time in stride(from: 150, through: 1400, by: 50) {
            sent += writes(session.receive(Array("!TICK\n".utf8), now: at(time)))
            sent += writes(session.expire(now: at(time)))
        }
        #expect(sent == [Array("B?\n".utf8)])
    }

    /// A device that answers every command 600 ms late with a 300 ms timeout (a
    /// first-time user's trial: `query -t 300 A B C D` showed `B → ANS:A`, `D → ANS:B`):
    /// an answer taken for a later command is marked in doubt, and once the device has
    /// answered late, the longer wait after a timeout reports answers as late.
    @Test func slowDeviceAnswersAreLateNeverMispaired() {
        var session = Session(dialect: LineDialect())
        var now = 0
        var sentAt: [String: Int] = [:]
        var answers: [(Int, String)] = []
        var events: [SessionEvent] = []
        var actions: [SessionAction] = []
        for command in ["A", "B", "C", "D"] {
            actions += session.enqueue(command, timeout: .milliseconds(300), now: at(0)).1
        }
        while now <= 8000 {
            actions += session.expire(now: at(now))
            if let due = answers.first, due.0 <= now {
                answers.removeFirst()
                actions += session.receive(Array("ANS:\(due.1)\n".utf8), now: at(now))
            }
            for case .write(let bytes) in actions {
                let command = String(decoding: bytes.dropLast(), as: UTF8.self)
                sentAt[command] = now
                answers.append((now + 600, command))
            }
            events += self.events(actions)
            actions = []
            now += 10
        }
        #expect(sentAt.count == 4)
        let mispaired = events.compactMap {
            if case .replied(_, let command, let reply, _) = $0, reply.lines.first?.text != "ANS:\(command)",
                !reply.isInDoubt
            {
                "\(command)=\(reply.lines[0].text)"
            } else {
                nil
            }
        }
        #expect(mispaired.isEmpty, "an answer taken for another command's reply is marked in doubt: \(mispaired)")
        let late = events.compactMap {
            if case .lateReply(let command, let reply) = $0 { "\(command)=\(reply.lines[0].text)" } else { nil }
        }
        #expect(late.allSatisfy { $0 == "A=ANS:A" || $0 == "B=ANS:B" || $0 == "C=ANS:C" || $0 == "D=ANS:D" })
        #expect(late.contains("D=ANS:D"), "once the device has answered late, the wait after a timeout catches it")
    }

    /// What an AT command received before it timed out is reported, not thrown away
    /// (a first-time user's trial: the env simulator answered `AT` with a line that is
    /// not a final result code, and the output showed only the timeout).
    @Test func linesReceivedBeforeATimeoutAreReported() {
        var session = Session(dialect: ATDialect())
        let (id, _) = session.enqueue("AT", timeout: .milliseconds(300), now: at(0))
        _ = session.receive(Array("ERR -113,\"Undefined header\"\r\n".utf8), now: at(5))
        let expired = events(session.expire(now: at(300)))
        #expect(
            expired == [
                .partialReply(id, command: "AT", lines: [Line("ERR -113,\"Undefined header\"")]),
                .failed(id, command: "AT", failure: .timedOut(.milliseconds(300))),
            ])
    }

    /// Found by the `session` fuzz target: with `--check-errors`, the first error-queue
    /// entry was taken, then the device hung up before `0,"No error"`; the entry was
    /// never shown. Lines a request took before a hang-up are a partial reply.
    @Test func linesTakenBeforeAHangUpAreReported() {
        var session = Session(dialect: SCPIDialect(checksErrors: true))
        let (id, _) = session.enqueue("", timeout: nil, now: at(0))
        _ = session.receive(Array("-113,\"Undefined header\"\r\n".utf8), now: at(0))
        #expect(
            events(session.hangUp(reason: "fuzz", now: at(0))) == [
                .partialReply(id, command: "", lines: [Line("-113,\"Undefined header\"")]),
                .failed(id, command: "", failure: .disconnected(reason: "fuzz")),
            ])
    }

    /// Two identical lines after a timeout (a second trial: `SETP 13`'s reply dropped,
    /// `SETP 22`'s duplicated as `OK\r\nOK\r\n`) cannot be told apart: the first is held
    /// as contested and the second decides it was the late reply; `SETP 22` gets the
    /// second. A third `OK` after that is a notification, not a late reply.
    @Test func duplicateAfterALaterAnswerIsANotification() {
        var session = Session(dialect: LineDialect())
        _ = session.enqueue("SETP 13", timeout: .milliseconds(200), now: at(0))
        let (answered, _) = session.enqueue("SETP 22", timeout: .milliseconds(200), now: at(0))
        #expect(writes(session.expire(now: at(250))) == [Array("SETP 22\n".utf8)], "250 ms quiet since SETP 13")
        let received = events(session.receive(Array("OK\r\nOK\r\n".utf8), now: at(270)))
        #expect(
            received == [
                .lateReply(command: "SETP 13", reply: Reply(lines: [Line("OK")])),
                .replied(answered, command: "SETP 22", reply: Reply(lines: [Line("OK")]), roundTrip: .milliseconds(20)),
            ])
        #expect(events(session.receive(Array("OK\r\n".utf8), now: at(290))) == [.notification(Line("OK"))])
    }

    @Test func errorReplyIsMarked() {
        var session = Session(dialect: LineDialect())
        _ = session.enqueue("SETP 99", timeout: .seconds(1), now: at(0))
        let received = events(session.receive(Array("ERR -222,\"Data out of range\"\r\n".utf8), now: at(2)))
        guard case .replied(_, _, let reply, _) = received.first else {
            Issue.record("no reply: \(received)")
            return
        }
        #expect(reply.isError)
    }

    /// A close the caller asked for (Ctrl-C) is not the device's doing: the request in
    /// flight is `stopped` with the caller's reason, the queued ones are not sent.
    @Test func aHangUpAskedForStopsTheRequestInFlightWithTheReason() {
        var session = Session(dialect: LineDialect())
        let (first, _) = session.enqueue("TEMP?", timeout: nil, now: at(0))
        let (second, _) = session.enqueue("next", timeout: nil, now: at(0))
        let received = events(session.hangUp(reason: "interrupted", isAskedFor: true, now: at(5)))
        #expect(received.contains(.failed(first, command: "TEMP?", failure: .stopped(reason: "interrupted"))))
        #expect(received.contains(.failed(second, command: "next", failure: .notSent(reason: "interrupted"))))
        #expect(RequestFailure.stopped(reason: "interrupted").description == "interrupted before the reply came")
    }

    /// At hang-up the unterminated tail is a notification, never a reply,
    /// and every request fails.
    @Test func hangUpReportsTheTailAndFailsRequests() {
        var session = Session(dialect: LineDialect())
        let (first, _) = session.enqueue("dump", timeout: .seconds(10), now: at(0))
        let (second, _) = session.enqueue("next", timeout: .seconds(10), now: at(0))
        var received = events(session.receive(Array("line1\r\nBlorp".utf8), now: at(5)))
        #expect(replies(received) == ["dump": ["line1"]])
        received = events(session.hangUp(reason: "device hung up", now: at(300)))
        #expect(received.first == .notification(Line(Array("Blorp".utf8), ending: .unterminated)))
        #expect(received.contains(.failed(second, command: "next", failure: .disconnected(reason: "device hung up"))))
        #expect(!received.contains { if case .failed(first, _, _) = $0 { true } else { false } })
        let (_, after) = session.enqueue("again", timeout: nil, now: at(400))
        #expect(writes(after).isEmpty)
        #expect(events(after).count == 1)
    }

    @Test func noDeadlineWaitsUntilTheReply() {
        var session = Session(dialect: LineDialect())
        _ = session.enqueue("AT", timeout: nil, now: at(0))
        #expect(session.nextDeadline == nil)
        #expect(events(session.expire(now: at(60_000))).isEmpty)
        #expect(replies(events(session.receive(Array("OK\n".utf8), now: at(60_300)))) == ["AT": ["OK"]])
    }

    /// A line that comes while the port has not taken the whole command yet (a paced
    /// write, `--char-delay`) is no reply of it (`line`): a notification, and the reply
    /// is the line after the write, settled (that line showed the device speaks unasked).
    @Test func aLineDuringTheCommandsWriteIsNoReply() {
        var harness = SessionHarness(LineDialect())
        let id = harness.enqueue("PRINT 2+2", timeout: 1000, at: 0)
        harness.session.awaitWrite(of: id)
        harness.receive("!READING t=1\r\n", at: 10)
        harness.session.writeCompleted(of: id, reachedAt: harness.at(20))
        harness.receive("4\r\n", at: 30)
        harness.expire(at: 100)
        #expect(harness.notificationTexts == ["!READING t=1"])
        #expect(harness.replyLines == [["4"]])
        #expect(
            harness.events.first { if case .settling = $0 { true } else { false } }
                == .settling(
                    SettlingEvidence(.begunBeforeCommand, line: Line("!READING t=1"))))
    }

    /// `tether query --sim "$(python3 -c 'print("A"*120000)')"`: the `env` device
    /// answers `ERR -363,"Input buffer overrun"\r\n` 22 ms into the write, which
    /// reaches it after 10.4 s at 115200 baud. That line was shown as a notification,
    /// then `no reply within 1000 ms`. It is the reply: no other line came by the
    /// deadline, which runs from when the write reached the device, not from the send.
    @Test func aReplyBeforeTheWriteIsDoneIsTheReply() {
        var harness = SessionHarness(LineDialect(notificationPattern: try! LinePattern("^!")))
        let command = String(repeating: "A", count: 120_000)
        let id = harness.enqueue(command, timeout: 1000, at: 0)
        harness.session.awaitWrite(of: id)
        harness.receive("ERR -363,\"Input buffer overrun\"\r\n", at: 22)
        harness.receive("!READING temp=21.52 hum=40.7\r\n", at: 1000)
        harness.expire(at: 5000)
        harness.session.writeCompleted(of: id, reachedAt: harness.at(10_417))
        harness.expire(at: 11_416)
        #expect(harness.replies.isEmpty && harness.timedOut.isEmpty, "the deadline runs from 10.417 s")
        harness.expire(at: 11_417)
        #expect(harness.timedOut.isEmpty)
        #expect(harness.replies.map(\.command) == [command])
        #expect(harness.replyLines == [["ERR -363,\"Input buffer overrun\""]])
        #expect(harness.replies.first?.reply.isError == true)
        #expect(harness.replies.first?.reply.isInDoubt == false)
        #expect(harness.notificationTexts == ["!READING temp=21.52 hum=40.7"])
        let roundTrip = harness.events.compactMap { if case .replied(_, _, _, let time) = $0 { time } else { nil } }
        #expect(roundTrip == [.milliseconds(22)])
    }
}
