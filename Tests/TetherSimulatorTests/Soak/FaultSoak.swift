import Foundation
import Synchronization
import TetherModel
import TetherSerial

@testable import TetherSimulator

/// A fault soak: many queries through libserialport and tether's Model against a
/// simulator that injects one kind of fault (or all), counting what went wrong.
///
/// The device answers `Q n` with `R n` and sends `!TICK` every 10 ms; the simulator
/// numbers notifications (`seq=`). A reply that does not end in its own `R n` is
/// *mismatched*; a sequence number missing below the highest one seen is *lost*, one
/// seen twice *duplicated*; a query that neither answers nor fails within its timeout
/// plus 10 s is a *hang*. `scripts/soak` runs it long; `FaultSoakTests` briefly.
struct FaultSoak {
    /// One scenario: a name and the faults to inject.
    struct Scenario: Sendable, CustomStringConvertible {
        var name: String
        var faults: FaultPlan
        /// The share of the soak's queries this scenario runs (a timeout costs a quiet
        /// wait of up to 1.5 s on a line that keeps sending notifications).
        var share = 1.0
        /// Whether a reply may go to the wrong query: a duplicated reply whose copy is
        /// split so that it arrives after the next command is written is, to a line
        /// protocol, that command's answer — and every later reply shifts by one until a
        /// timeout resynchronises (counted, not a failure of the short test).
        var mayMismatch = false
        var description: String { name }
    }

    /// What a soak counted.
    struct Counts: Sendable, Equatable, CustomStringConvertible {
        var queries = 0
        var answered = 0
        var mismatched = 0
        var timedOut = 0
        var failed = 0
        var hangs = 0
        var lateReplies = 0
        var notifications = 0
        var lost = 0
        var duplicated = 0
        var reconnects = 0

        var description: String {
            "\(queries) queries: \(answered) answered, \(mismatched) mismatched, \(timedOut) timed out, "
                + "\(failed) failed while away, \(hangs) hangs, \(lateReplies) late replies; "
                + "\(notifications) numbered notifications: \(lost) lost, \(duplicated) duplicated; "
                + "\(reconnects) reconnects"
        }
    }

    /// The reply timeout of each query.
    static let timeout = Duration.milliseconds(250)

    static func scenarios(seed: UInt64) -> [Scenario] {
        func plan(_ change: (inout FaultPlan) -> Void) -> FaultPlan {
            var faults = FaultPlan(seed: seed)
            faults.sequenceNumbers = true
            change(&faults)
            return faults
        }
        let split: (inout FaultPlan) -> Void = { $0.splitMaximum = 3 }
        let garbage: (inout FaultPlan) -> Void = { $0.garbageProbability = 0.2 }
        let latency: (inout FaultPlan) -> Void = {
            $0.latency = .milliseconds(100)
            $0.jitter = .milliseconds(180)
        }
        let drops: (inout FaultPlan) -> Void = { $0.dropProbability = 0.03 }
        let duplicates: (inout FaultPlan) -> Void = { $0.duplicateProbability = 0.1 }
        let disconnects = { (lines: Int) -> (inout FaultPlan) -> Void in
            { $0.disconnect = .init(trigger: .afterLines(lines), reappearAfter: .milliseconds(200)) }
        }
        let everything = { (withDuplicates: Bool) -> (inout FaultPlan) -> Void in
            { faults in
                split(&faults)
                garbage(&faults)
                faults.latency = .milliseconds(20)
                faults.jitter = .milliseconds(250)
                drops(&faults)
                if withDuplicates { duplicates(&faults) }
                disconnects(150)(&faults)
            }
        }
        return [
            Scenario(name: "split writes", faults: plan(split)),
            Scenario(name: "garbage", faults: plan(garbage)),
            Scenario(name: "latency past the timeout", faults: plan(latency), share: 0.25),
            Scenario(name: "drops", faults: plan(drops)),
            Scenario(name: "duplicates", faults: plan(duplicates)),
            Scenario(name: "disconnects", faults: plan(disconnects(50))),
            Scenario(name: "all but duplicates", faults: plan(everything(false)), share: 0.5),
            Scenario(name: "all together", faults: plan(everything(true)), share: 0.5, mayMismatch: true),
        ]
    }

    /// Runs `scenario.share` of `total` queries (at least 10) under `scenario`'s faults.
    static func run(_ scenario: Scenario, queries total: Int) async throws -> Counts {
        let queries = max(10, Int(Double(total) * scenario.share))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("device").path
        let simulator = try Simulator(device: EchoDevice(), link: link, faults: scenario.faults)
        defer { simulator.stop() }
        let opener = PortOpener(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(200)) {
            () throws(SerialError) -> any SerialTransport in
            try SerialPort.open(link, configuration: SerialConfiguration())
        }
        let device = try Device(
            transport: try opener.open(), name: link,
            dialect: LineDialect(notificationPattern: try LinePattern("!TICK")), settings: "115200 8N1",
            reopener: opener)
        let tally = Tally()
        let observer = Task { [events = device.events(.lossless(bufferLimit: 4096))] in
            for await event in events { tally.record(event.kind) }
        }
        await device.start()
        var counts = Counts()
        for index in 0..<queries {
            counts.queries += 1
            switch await ask(device, "Q \(index)") {
            case .answered(let reply):
                counts.answered += 1
                let expected = Array("R \(index)".utf8)
                if reply.lines.count != 1 || !reply.lines[0].bytes.suffix(expected.count).elementsEqual(expected) {
                    counts.mismatched += 1
                    if ProcessInfo.processInfo.environment["TETHER_SOAK_TRACE"] != nil {
                        print("mismatch: Q \(index) → \(reply.lines.map(\.text))")
                    }
                }
            case .failed(.timedOut):
                counts.timedOut += 1
            case .failed:
                counts.failed += 1
                try await Task.sleep(for: .milliseconds(20))
            case .hung:
                counts.hangs += 1
            }
        }
        await device.close()
        await observer.value
        tally.finish(into: &counts)
        return counts
    }

    private enum Outcome {
        case answered(Reply)
        case failed(RequestFailure)
        case hung
    }

    /// A query raced against a watchdog of its timeout plus 10 s.
    private static func ask(_ device: Device, _ command: String) async -> Outcome {
        await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                do throws(RequestFailure) {
                    return .answered(try await device.query(command, timeout: timeout))
                } catch {
                    return .failed(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout + .seconds(10))
                return Task.isCancelled ? nil : .hung
            }
            let first = await group.next()!!
            group.cancelAll()
            return first
        }
    }

    /// Counts notifications by sequence number, late replies and reconnects, from the
    /// observer's task.
    private final class Tally: Sendable {
        private let state = Mutex<(seen: [Int: Int], late: Int, reconnects: Int)>(([:], 0, 0))

        func record(_ kind: DeviceEvent.Kind) {
            state.withLock { state in
                switch kind {
                case .session(.notification(let line)):
                    // The tail at a hang-up is a line cut short, so its number may be cut
                    // too (`seq=1` of `seq=15`, counted once as a duplicate under load).
                    guard line.ending == .terminated,
                        let range = line.text.range(of: " seq=", options: .backwards),
                        let number = Int(line.text[range.upperBound...])
                    else { return }
                    state.seen[number, default: 0] += 1
                case .session(.lateReply): state.late += 1
                case .reconnected: state.reconnects += 1
                default: break
                }
            }
        }

        func finish(into counts: inout Counts) {
            state.withLock { state in
                let highest = state.seen.keys.max() ?? 0
                counts.notifications = state.seen.count
                counts.lost = (1...max(1, highest)).filter { state.seen[$0] == nil }.count - (highest == 0 ? 1 : 0)
                counts.duplicated = state.seen.values.filter { $0 > 1 }.count
                counts.lateReplies = state.late
                counts.reconnects = state.reconnects
            }
        }
    }
}

/// Answers `Q n` with `R n`; sends `!TICK` every 10 ms while a client is connected.
final class EchoDevice: SimulatedDevice {
    private let state = Mutex<(buffer: [UInt8], due: ContinuousClock.Instant?)>(([], nil))

    func clientDidConnect(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        state.withLock { $0 = ([], now + .milliseconds(10)) }
        return []
    }

    func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] {
        state.withLock { state in
            state.buffer += bytes
            var replies: [UInt8] = []
            while let end = state.buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: state.buffer[..<end], as: UTF8.self)
                state.buffer.removeSubrange(...end)
                if line.hasPrefix("Q ") { replies += Array("R \(line.dropFirst(2))\r\n".utf8) }
            }
            return replies.isEmpty ? [] : [.send(replies)]
        }
    }

    var nextWakeUp: ContinuousClock.Instant? { state.withLock { $0.due } }

    func wakeUp(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        state.withLock { state in
            guard let due = state.due, due <= now else { return [] }
            state.due = max(due + .milliseconds(10), now)
            return [.send(Array("!TICK\r\n".utf8))]
        }
    }

    func clientDidDisconnect(at now: ContinuousClock.Instant) {
        state.withLock { $0.due = nil }
    }
}
