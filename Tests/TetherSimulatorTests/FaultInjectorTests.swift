import Testing

@testable import TetherSimulator

/// The fault plan's transformations of outputs, without a pty.
@Suite struct FaultInjectorTests {
    private let now = ContinuousClock.now

    @Test func sequenceNumbersGoOnNotificationLinesAndContinueAcrossConnections() {
        var plan = FaultPlan()
        plan.sequenceNumbers = true
        var injector = FaultInjector(plan: plan)
        let first = injector.prepare(Array("!A x=1\r\n!B\r\n".utf8), isNotification: true)
        #expect(String(decoding: first.bytes, as: UTF8.self) == "!A x=1 seq=1\r\n!B seq=2\r\n")
        let reply = injector.prepare(Array("OK\r\n".utf8), isNotification: false)
        #expect(reply.bytes == Array("OK\r\n".utf8))
        injector.startConnection()
        // A line written in two pieces gets one number, before its terminator.
        let head = injector.prepare(Array("!C".utf8), isNotification: true)
        let tail = injector.prepare(Array(" y=2\n".utf8), isNotification: true)
        #expect(String(decoding: head.bytes + tail.bytes, as: UTF8.self) == "!C y=2 seq=3\n")
    }

    @Test func garbageNeverAddsOrSplitsLines() {
        var plan = FaultPlan(seed: 42)
        plan.garbageProbability = 1
        var injector = FaultInjector(plan: plan)
        let text = (1...50).map { "LINE\($0)\r\n" }.joined()
        let prepared = injector.prepare(Array(text.utf8), isNotification: false)
        #expect(prepared.linesEnded == 50)
        let lines = prepared.bytes.split(separator: 0x0A).map { Array($0) }
        #expect(lines.count == 50)
        for (index, line) in lines.enumerated() {
            let body = Array("LINE\(index + 1)\r".utf8)
            #expect(Array(line.suffix(body.count)) == body)
            let noise = line.dropLast(body.count)
            #expect((1...FaultInjector.maximumGarbageLength).contains(noise.count))
            #expect(!noise.contains(0x0D) && !noise.contains(0x0A))
        }
    }

    @Test func theSameSeedGivesTheSameGarbage() {
        var plan = FaultPlan(seed: 9)
        plan.garbageProbability = 0.5
        var one = FaultInjector(plan: plan)
        var two = FaultInjector(plan: plan)
        let bytes = Array(String(repeating: "abc\n", count: 40).utf8)
        #expect(one.prepare(bytes, isNotification: false) == two.prepare(bytes, isNotification: false))
        var reference = FaultInjector(plan: plan)
        plan.seed = 10
        var other = FaultInjector(plan: plan)
        #expect(other.prepare(bytes, isNotification: false) != reference.prepare(bytes, isNotification: false))
    }

    @Test func aLineLimitStopsAfterThatLinesTerminator() {
        var injector = FaultInjector(plan: FaultPlan())
        let prepared = injector.prepare(Array("a\r\nb\r\nc\r\n".utf8), isNotification: false, lineLimit: 2)
        #expect(prepared == .init(bytes: Array("a\r\nb\r\n".utf8), linesEnded: 2, reachedLimit: true))
    }

    @Test func droppedRepliesKeepTheirHangUp() {
        var plan = FaultPlan()
        plan.dropProbability = 1
        var injector = FaultInjector(plan: plan)
        #expect(
            injector.replies([.send("OK\r\n"), .hangUp(after: .seconds(1))], at: now) == [.hangUp(after: .seconds(1))])
        // A reply with nothing to send is left alone.
        #expect(injector.replies([], at: now) == [])
    }

    /// The drops' own stream: with the default seed, `--drop 0.2` once dropped the first
    /// four replies (the stream was the profile noise's). Of 200 replies about a fifth go,
    /// and the first two (docs/SIMULATOR.md's `--drop 0.2` example) are answered.
    @Test func dropsFollowTheirProbabilityFromTheFirstReply() {
        var plan = FaultPlan(seed: ProfileDevice.defaultSeed)
        plan.dropProbability = 0.2
        var injector = FaultInjector(plan: plan)
        let answered = (0..<200).map { _ in !injector.replies([.send("OK\r\n")], at: now).isEmpty }
        #expect(answered.prefix(2) == [true, true])
        #expect((20...60).contains(answered.filter { !$0 }.count))
    }

    @Test func aDuplicateFollowsInTheSameWrite() {
        var plan = FaultPlan()
        plan.duplicateProbability = 1
        var injector = FaultInjector(plan: plan)
        #expect(injector.replies([.send("22.0\r\n")], at: now) == [.send("22.0\r\n22.0\r\n")])
    }

    @Test func latencyDelaysEveryReplyAndJitterNeverReordersThem() {
        var plan = FaultPlan(seed: 3)
        plan.latency = .milliseconds(50)
        plan.jitter = .milliseconds(500)
        var injector = FaultInjector(plan: plan)
        var lastDue = now
        for step in 0..<100 {
            let at = now + .milliseconds(step)
            let outputs = injector.replies([.send("R\(step)\r\n")], at: at)
            let due = at + outputs[0].delay
            #expect(outputs[0].delay >= .milliseconds(50))
            #expect(due >= lastDue)
            lastDue = due
        }
    }

    @Test func anEmptyPlanChangesNothing() {
        var injector = FaultInjector(plan: FaultPlan(seed: 5))
        let outputs: [DeviceOutput] = [.send("OK\r\n", after: .milliseconds(3))]
        #expect(injector.replies(outputs, at: now) == outputs)
        #expect(injector.prepare(Array("!X\r\n".utf8), isNotification: true).bytes == Array("!X\r\n".utf8))
        #expect(FaultPlan(seed: 5).isEmpty)
    }
}
