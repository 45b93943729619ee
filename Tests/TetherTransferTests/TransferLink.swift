import TetherSimulator
import TetherTransfer

/// A sender and a receiver joined in memory by a line that may drop, duplicate and
/// corrupt bytes (a seeded generator, so every run is the same), on a simulated
/// clock: when neither side has bytes to read, the clock jumps to the next deadline.
struct TransferLink {
    /// What the line does to each byte, as chances per byte.
    struct Noise {
        var drop = 0.0
        var duplicate = 0.0
        var corrupt = 0.0
        var seed: UInt64 = 1

        static let none = Noise()
    }

    /// How both sides ended and what the receiver reported.
    struct Result {
        var sent: TransferOutcome?
        var received: TransferOutcome?
        var files: [TransferFile] = []
        var elapsed: Duration = .zero
    }

    var sender: any TransferMachine
    var receiver: any TransferMachine
    var noise: Noise

    /// Runs both sides until both have finished.
    mutating func run() -> Result {
        var random = SeededRandomGenerator(seed: noise.seed)
        let start = ContinuousClock.now
        var now = start
        var result = Result()
        var toReceiver: [UInt8] = []
        var toSender: [UInt8] = []
        func perform(_ actions: [TransferAction], into line: inout [UInt8], isSender: Bool) {
            for action in actions {
                switch action {
                case .write(let bytes): line += carry(bytes, &random)
                case .report(.received(let file)): result.files.append(file)
                case .report: break
                case .finished(let outcome):
                    if isSender { result.sent = outcome } else { result.received = outcome }
                }
            }
        }
        perform(receiver.start(now: now), into: &toSender, isSender: false)
        perform(sender.start(now: now), into: &toReceiver, isSender: true)
        var steps = 0
        while !(sender.isFinished && receiver.isFinished), steps < 5_000_000 {
            steps += 1
            if !toReceiver.isEmpty {
                let bytes = toReceiver
                toReceiver = []
                if !receiver.isFinished { perform(receiver.receive(bytes, now: now), into: &toSender, isSender: false) }
            } else if !toSender.isEmpty {
                let bytes = toSender
                toSender = []
                if !sender.isFinished { perform(sender.receive(bytes, now: now), into: &toReceiver, isSender: true) }
            } else {
                let deadlines = [sender.nextDeadline, receiver.nextDeadline].compactMap { $0 }
                guard let next = deadlines.min() else { break }
                now = max(now, next)
                perform(sender.expire(now: now), into: &toReceiver, isSender: true)
                perform(receiver.expire(now: now), into: &toSender, isSender: false)
            }
        }
        result.elapsed = now - start
        return result
    }

    private func carry(_ bytes: [UInt8], _ random: inout SeededRandomGenerator) -> [UInt8] {
        guard noise.drop > 0 || noise.duplicate > 0 || noise.corrupt > 0 else { return bytes }
        var carried: [UInt8] = []
        carried.reserveCapacity(bytes.count + 8)
        for byte in bytes {
            let roll = Double.random(in: 0..<1, using: &random)
            if roll < noise.drop { continue }
            if roll < noise.drop + noise.corrupt {
                carried.append(byte ^ UInt8.random(in: 1...255, using: &random))
                continue
            }
            carried.append(byte)
            if roll < noise.drop + noise.corrupt + noise.duplicate { carried.append(byte) }
        }
        return carried
    }
}

/// Test data: `count` bytes from a seeded generator.
func randomBytes(_ count: Int, seed: UInt64 = 42) -> [UInt8] {
    var random = SeededRandomGenerator(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
}
