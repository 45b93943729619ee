import Testing

@testable import TetherModel

/// Each stage of the session pipeline on its own (docs/ARCHITECTURE.md, "The session
/// pipeline"), and the whole pipeline as a decoder: fed whole, one byte at a time and
/// in seeded random chunks, it gives the same events.
@Suite struct SessionStageTests {
    static let now = ContinuousClock.now

    /// Cuts `bytes` into reads: `sizes` in turn, or random sizes (1–16) when `nil`.
    static func reads(_ bytes: [UInt8], sizes: [Int]?, seed: UInt64) -> [[UInt8]] {
        var random = SplitMix64(seed: seed)
        var reads: [[UInt8]] = []
        var index = 0
        var turn = 0
        while index < bytes.count {
            let size = max(1, sizes.map { $0[turn % $0.count] } ?? Int(random.next() % 16) + 1)
            reads.append(Array(bytes[index..<min(bytes.count, index + size)]))
            index += size
            turn += 1
        }
        return reads
    }

    /// Every way of cutting `bytes` the verifier tries, the whole first.
    static func cuts(of bytes: [UInt8]) -> [[[UInt8]]] {
        [[bytes]] + [[1], [2], [3, 1, 7]].map { reads(bytes, sizes: $0, seed: 0) }
            + (UInt64(1)...20).map { reads(bytes, sizes: nil, seed: $0) }
    }

    // MARK: - Framing

    static let framedStreams: [(String, any Dialect)] = [
        ("boot\r\nready\n\rModel: pcDuino3\n\r=> ", LineDialect()),
        ("AT+CSQ\r\r\n+CSQ: 23,99\r\n\r\nOK\r\n+IPD,0,4:a\r\nb\r\n", ATDialect()),
        ("#15HELLO\r\n#0ab\ncd\n:MEAS?\r\n", SCPIDialect()),
        ("lone\rcr\r\rmixed\r\n", LineDialect()),
    ]

    @Test(arguments: 0..<framedStreams.count)
    func framingGivesTheSameLinesHoweverTheReadsAreCut(index: Int) {
        let (text, dialect) = Self.framedStreams[index]
        func frame(_ reads: [[UInt8]]) -> (lines: [Line], partial: [UInt8]) {
            var stage = FramingStage(maximumLineLength: 16, payloadFraming: dialect.payloadFraming)
            var lines: [Line] = []
            for read in reads { lines += stage.lines(from: stage.noteReceived(read, now: Self.now)) }
            return (lines, stage.partial)
        }
        let cuts = Self.cuts(of: Array(text.utf8))
        let whole = frame(cuts[0])
        #expect(!whole.lines.isEmpty)
        for reads in cuts.dropFirst() {
            let framed = frame(reads)
            #expect(framed.lines == whole.lines, "reads \(reads.map(\.count))")
            #expect(framed.partial == whole.partial)
        }
    }

    @Test func dataModeGivesTheSameDataAndCodeHoweverTheReadsAreCut() {
        let bytes = Array("\u{1}\u{2}NO\r\nCARRIER?\r\nNO CARRIER\r\nOK\r\n".utf8)
        for reads in Self.cuts(of: bytes) {
            var stage = FramingStage(maximumLineLength: 1024, payloadFraming: nil)
            stage.enterDataMode(now: Self.now)
            var data: [UInt8] = []
            var code: Line?
            var lines: [Line] = []
            for read in reads {
                guard stage.isInDataMode else {
                    lines += stage.lines(from: read)
                    continue
                }
                let taken = stage.takeData(read)
                data += taken.data
                code = code ?? taken.code
                lines += taken.lines
            }
            #expect(String(decoding: data, as: UTF8.self) == "\u{1}\u{2}NO\r\nCARRIER?")
            #expect(code == Line(Array("NO CARRIER".utf8)))
            #expect(lines.map(\.text).filter { !$0.isEmpty } == ["NO CARRIER", "OK"])
            #expect(!stage.isInDataMode)
        }
    }

    @Test func readingStalledCountsNoQuietUntilItResumes() {
        var stage = FramingStage(maximumLineLength: 1024, payloadFraming: nil)
        _ = stage.lines(from: stage.noteReceived(Array("=> ".utf8), now: Self.now))
        #expect(stage.pendingTextAt(quiet: .milliseconds(100)) == Self.now + .milliseconds(100))
        stage.noteReading(false, now: Self.now + .milliseconds(10))
        #expect(stage.pendingTextAt(quiet: .milliseconds(100)) == nil)
        stage.noteReading(true, now: Self.now + .milliseconds(500))
        #expect(stage.pendingTextAt(quiet: .milliseconds(100)) == Self.now + .milliseconds(600))
    }

    // MARK: - Classification

    @Test func classificationNamesNoiseAndUnsolicitedLines() {
        var classifier = Classifier(dialect: ATDialect())
        let (noise, ring) = classifier.classify(Line(Array("RING".utf8)), pending: nil)
        #expect(noise == nil)
        #expect(ring == .notification(Line(Array("RING".utf8))))
        let (_, reply) = classifier.classify(Line(Array("+CSQ: 23,99".utf8)), pending: "AT+CSQ")
        #expect(reply == .candidate(Line(Array("+CSQ: 23,99".utf8))))
    }

    // MARK: - Gate

    @Test func aResyncHoldWaitsForQuietFromTheLastByteWithinItsLimit() {
        let hold = Gate.Hold(
            reason: .resync, began: Self.now, from: Self.now, quiet: .milliseconds(250),
            limit: Self.now + .milliseconds(1250))
        #expect(hold.end(lastByteAt: nil, hasPartial: false) == Self.now + .milliseconds(250))
        #expect(hold.end(lastByteAt: Self.now + .milliseconds(100), hasPartial: false) == Self.now + .milliseconds(350))
        #expect(hold.end(lastByteAt: Self.now + .seconds(5), hasPartial: false) == Self.now + .milliseconds(1250))
    }

    @Test(arguments: [Gate.Reason.listen, .readiness, .settling])
    func otherHoldsRunAFixedTimeLongerOnlyWhileALineIsUnfinished(reason: Gate.Reason) {
        let hold = Gate.Hold(
            reason: reason, began: Self.now, from: Self.now, quiet: .milliseconds(150), limit: Self.now + .seconds(1))
        #expect(hold.end(lastByteAt: Self.now + .milliseconds(140), hasPartial: false) == Self.now + .milliseconds(150))
        #expect(hold.end(lastByteAt: Self.now, hasPartial: true) == Self.now + .seconds(1))
    }

    @Test func settlingIsReportedOnceBeforeTheFirstReplyHeld() {
        var gate = Gate(settlesFromStart: false)
        #expect(gate.settling == .off)
        let evidence = SettlingEvidence(.unasked, line: Line(Array("!T 21".utf8)))
        gate.startSettling(evidence, now: Self.now)
        #expect(gate.settling == .evidenced(evidence))
        let reply = Gate.SettlingReply(
            id: RequestID(value: 1), command: "T?", reply: Reply(lines: []), roundTrip: .zero)
        gate.settle(reply, for: .milliseconds(5), now: Self.now)
        #expect(gate.settling == .on)
        #expect(gate.hold?.reason == .settling)
        let (events, _) = gate.open(before: nil, now: Self.now)
        #expect(events.first == .settling(evidence))
        #expect(gate.hold == nil && gate.settlingReply == nil)
    }

    @Test func theOpeningListenIsReportedBeforeTheCommandItHeld() {
        var harness = SessionHarness(LineDialect(openingListen: .milliseconds(150)))
        harness.session.holdRequests()
        harness.enqueue("*IDN?")
        harness.release(at: 0)
        harness.expire(at: 149)
        #expect(harness.writes.isEmpty)
        harness.expire(at: 150)
        #expect(
            Array(harness.events.prefix(2)) == [
                .held(.listen, for: .milliseconds(150), before: "*IDN?"),
                .sent(RequestID(value: 1), command: "*IDN?", bytes: Array("*IDN?".utf8)),
            ])
    }

    /// A line nobody asked for during the opening listen makes that listen longer, once:
    /// one `held` record for the command, not two. (Found trying `query` on a modem that
    /// sends `\r\nRING\r\n` at open: two `listen` records, 150 and 22 ms.)
    @Test func evidenceDuringTheOpeningListenLengthensItAndIsReportedOnce() {
        var harness = SessionHarness(LineDialect(openingListen: .milliseconds(150)))
        harness.session.holdRequests()
        harness.enqueue("AT")
        harness.release(at: 0)
        harness.receive("RING\r\n", at: 20)
        harness.expire(at: 150)
        #expect(harness.writes.isEmpty, "the listen lasts 150 ms after the evidence")
        harness.expire(at: 170)
        let held = harness.events.filter { if case .held = $0 { true } else { false } }
        #expect(held == [.held(.listen, for: .milliseconds(170), before: "AT")])
        #expect(harness.writes.count == 1)
    }

    @Test func theQuietAfterATimeoutIsReportedWithTheCommandItHeld() {
        var harness = SessionHarness(LineDialect())
        harness.enqueue("A?", timeout: 100)
        harness.enqueue("B?", timeout: 100)
        harness.expire(at: 100)
        harness.expire(at: 249)
        #expect(harness.writes.count == 1, "A? timed out; B? waits for 250 ms of quiet counted from A?'s send")
        harness.expire(at: 250)
        #expect(harness.events.contains(.held(.resync, for: .milliseconds(150), before: "B?")), "from the timeout")
        #expect(harness.writes.count == 2)
    }

    // MARK: - Pairing

    @Test func aLineBothTheTimedOutAndTheNewRequestWouldTakeIsContested() {
        var pairing = Pairing(dialect: LineDialect())
        var gate = Gate(settlesFromStart: false)
        var classifier = Classifier(dialect: LineDialect())
        var framing = FramingStage(maximumLineLength: 1024, payloadFraming: nil)
        let first = Request(
            id: RequestID(value: 1), command: "A?", bytes: Array("A?".utf8), isRaw: false, timeout: .seconds(1),
            queuedAt: Self.now)
        pairing.send(first, receivedBefore: 0, now: Self.now)
        _ = pairing.expire(now: Self.now + .seconds(1), gate: &gate, classifier: &classifier, framing: &framing)
        #expect(pairing.inFlight == nil && pairing.owed.count == 1)
        #expect(gate.hold?.reason == .resync)
        let second = Request(
            id: RequestID(value: 2), command: "B?", bytes: Array("B?".utf8), isRaw: false, timeout: .seconds(1),
            queuedAt: Self.now)
        pairing.send(second, receivedBefore: 0, now: Self.now + .seconds(2))
        let actions = pairing.offer(
            Line(Array("7".utf8)), now: Self.now + .milliseconds(2100), gate: &gate,
            classifier: &classifier, framing: &framing)
        #expect(actions.isEmpty)
        guard case .claimedByBoth = pairing.contest else {
            Issue.record("expected a contested line, got \(String(describing: pairing.contest))")
            return
        }
        // The next line decides: the contested line was the timed-out request's late reply.
        let decided = pairing.decideContest(
            now: Self.now + .milliseconds(2200), lastByteAt: nil, gate: &gate, classifier: &classifier)
        guard case .emit(.lateReply(let command, let reply)) = decided.first, decided.count == 1 else {
            Issue.record("expected the late reply, got \(decided)")
            return
        }
        #expect(command == "A?" && reply.lines.map(\.text) == ["7"])
        #expect(pairing.contest == nil && pairing.owed.isEmpty)
    }

    // MARK: - The whole pipeline

    static let exchanges: [(dialect: any Dialect, command: String, bytes: String)] = [
        (LineDialect(notificationPattern: try! LinePattern("^!")), "TEMP?", "!boot\n21.5\n!T 21\n"),
        (ATDialect(), "AT+CSQ", "\r\nRING\r\nAT+CSQ\r\r\n+CSQ: 23,99\r\n\r\nOK\r\n+CMTI: \"SM\",1\r\n"),
        (SCPIDialect(), ":READ?", "#15HELLO\n"),
        (SCPIDialect(), "*IDN?", "ACME,1,2,3\n"),
    ]

    @Test(arguments: 0..<exchanges.count)
    func thePipelineGivesTheSameEventsHoweverTheReadsAreCut(index: Int) {
        let exchange = Self.exchanges[index]
        func run(_ reads: [[UInt8]]) -> [SessionAction] {
            var session = Session(dialect: exchange.dialect)
            var actions = session.enqueue(exchange.command, timeout: .seconds(1), now: Self.now).1
            for read in reads { actions += session.receive(read, now: Self.now + .milliseconds(5)) }
            actions += session.expire(now: Self.now + .milliseconds(5))
            return actions
        }
        let cuts = Self.cuts(of: Array(exchange.bytes.utf8))
        let whole = run(cuts[0])
        #expect(whole.contains { if case .emit(.replied) = $0 { true } else { false } })
        for reads in cuts.dropFirst() {
            #expect(run(reads) == whole, "reads \(reads.map(\.count))")
        }
    }
}
