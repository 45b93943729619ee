import Foundation
import Testing
import TetherModel
import TetherSerial

@testable import TetherSimulator

/// Each fault through the real path: libserialport (`SerialPort`) and tether's Model
/// (`Device`, `Session`, the line dialect) against a simulator on a pty.
@Suite struct FaultModelTests {
    /// The ENV-1 notifications, matched anywhere in the line (garbage may precede them).
    static let notifications = try! LinePattern("!(READING|ALARM|BURST)")

    /// Commands whose replies differ, with the ENV-1's power-on answers.
    static let queries = [
        ("*IDN?", "TETHER,ENV-1,SIM0001,1.0"), ("SETP?", "22.0"), ("ALARM?", "30.0"), ("RATE?", "1000"),
    ]

    /// A started device on the simulator's slave.
    private func open(_ simulator: Simulator) throws -> Device {
        let port = try SerialPort.open(simulator.devicePath, configuration: SerialConfiguration())
        return try Device(
            transport: port, dialect: LineDialect(notificationPattern: Self.notifications), settings: "115200 8N1")
    }

    /// Whether the reply is the one line `expected`, noise in front allowed.
    private func reply(_ reply: Reply, endsWith expected: String) -> Bool {
        reply.lines.count == 1 && reply.lines[0].bytes.suffix(expected.utf8.count).elementsEqual(expected.utf8)
    }

    @Test func splitWritesAndGarbageStillPairEveryReply() async throws {
        var faults = FaultPlan(seed: 11)
        faults.splitMaximum = 3
        faults.garbageProbability = 0.5
        let simulator = try Simulator(faults: faults)
        let device = try open(simulator)
        let recorder = EventRecorder(device)
        await device.start()
        // Readings every 100 ms, with garbage too, interleave with the replies.
        let rate = try await device.query("RATE 100", timeout: .seconds(3))
        #expect(reply(rate, endsWith: "OK"))
        for _ in 0..<5 {
            for (command, expected) in Self.queries where command != "RATE?" {
                let answer = try await device.query(command, timeout: .seconds(3))
                #expect(reply(answer, endsWith: expected), "\(command) → \(answer.lines.map(\.text))")
            }
        }
        await device.close()
        #expect(await recorder.notifications.contains { $0.contains("!READING temp=") })
        #expect(simulator.received.count > 0)
    }

    /// A receiver without a FIFO (`receiveGap` 5 ms) takes `SETP 25\n` written in one
    /// go as `S` alone, and whole when the Model paces it at 250 ms a byte (a margin
    /// that a busy machine's scheduling cannot eat: the simulator runs in this test
    /// process, and a serving thread held up for 50 ms once read two bytes together).
    @Test func aReceiverWithoutAFIFOTakesOnlyPacedBytes() async throws {
        var faults = FaultPlan()
        faults.receiveGap = .milliseconds(5)
        for (pacing, expected) in [(Pacing(), "S"), (Pacing(characterDelay: .milliseconds(250)), "SETP 25\n")] {
            let simulator = try Simulator(faults: faults)
            let port = try SerialPort.open(simulator.devicePath, configuration: SerialConfiguration())
            let device = try Device(transport: port, dialect: LineDialect(), settings: "115200 8N1", pacing: pacing)
            await device.start()
            device.write(Array("SETP 25\n".utf8))
            let deadline = ContinuousClock.now + .seconds(20)
            while simulator.received.count < expected.utf8.count, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(200))
            #expect(String(decoding: simulator.received, as: UTF8.self) == expected)
            await device.close()
            simulator.stop()
        }
    }

    @Test func latencyMakesARepliesSlowerButStillMatched() async throws {
        var faults = FaultPlan()
        faults.latency = .milliseconds(400)
        let simulator = try Simulator(faults: faults)
        let device = try open(simulator)
        await device.start()
        for (command, expected) in Self.queries {
            let start = ContinuousClock.now
            let answer = try await device.query(command, timeout: .seconds(5))
            #expect(reply(answer, endsWith: expected))
            #expect(ContinuousClock.now - start >= .milliseconds(400))
        }
        await device.close()
    }

    @Test func aDroppedReplyTimesOutAndTheNextQueryIsFine() async throws {
        var faults = FaultPlan(seed: 4)
        faults.dropProbability = 0.5
        let simulator = try Simulator(faults: faults)
        let device = try open(simulator)
        await device.start()
        var answered = 0
        var timedOut = 0
        for round in 0..<12 {
            let (command, expected) = Self.queries[round % Self.queries.count]
            let outcome: Result<Reply, RequestFailure>
            do throws(RequestFailure) {
                outcome = .success(try await device.query(command, timeout: .milliseconds(500)))
            } catch {
                outcome = .failure(error)
            }
            switch outcome {
            case .success(let answer):
                #expect(reply(answer, endsWith: expected), "\(command) → \(answer.lines.map(\.text))")
                answered += 1
            case .failure(let failure):
                #expect(failure == .timedOut(.milliseconds(500)))
                timedOut += 1
            }
        }
        await device.close()
        #expect(answered > 0)
        #expect(timedOut > 0)
    }

    @Test func aDuplicatedReplyIsANotificationNeverTheNextReply() async throws {
        var faults = FaultPlan()
        faults.duplicateProbability = 1
        let simulator = try Simulator(faults: faults)
        let device = try open(simulator)
        let recorder = EventRecorder(device)
        await device.start()
        for (command, expected) in Self.queries {
            let answer = try await device.query(command, timeout: .seconds(3))
            #expect(reply(answer, endsWith: expected), "\(command) → \(answer.lines.map(\.text))")
        }
        // The copy of the last reply follows it: wait for it before closing.
        var copies: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while copies.count < Self.queries.count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            copies = await recorder.notifications.filter { !$0.hasPrefix("!READING") }
        }
        await device.close()
        #expect(copies == Self.queries.map(\.1))
    }

    @Test func pacingSlowsALongReply() async throws {
        let long = String(repeating: "A", count: 478) + "\r\n"
        let rules: [ScriptedDevice.Rule] = [.init(on: "LONG\n", send: [.init(long)])]
        var faults = FaultPlan()
        faults.paceBaud = 9600
        let paced = try Simulator(device: ScriptedDevice(rules: rules), faults: faults)
        let device = try open(paced)
        await device.start()
        let start = ContinuousClock.now
        let answer = try await device.query("LONG", timeout: .seconds(10))
        let elapsed = ContinuousClock.now - start
        await device.close()
        #expect(answer.lines.first?.bytes.count == 478)
        // 480 bytes × 10 bits at 9600 baud = 500 ms on the wire.
        #expect(elapsed >= .milliseconds(450), "480 bytes at 9600 baud took \(elapsed)")
        // Only that pacing does not stall: a loaded CI machine took 5.6 s.
        #expect(elapsed < .seconds(9))
    }
}

/// Keeps a device's events for later inspection.
actor EventRecorder {
    private(set) var events: [DeviceEvent.Kind] = []

    /// Starts recording `device`'s events (attach before `start()` to see `connected`).
    init(_ device: Device) {
        let stream = device.events()
        Task { [weak self] in
            for await event in stream { await self?.append(event.kind) }
        }
    }

    private func append(_ kind: DeviceEvent.Kind) { events.append(kind) }

    /// The text of every notification so far.
    var notifications: [String] {
        events.compactMap { if case .session(.notification(let line)) = $0 { line.text } else { nil } }
    }
}
