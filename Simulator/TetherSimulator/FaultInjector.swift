/// Applies a ``FaultPlan`` to what a device returns: a pure transformer of outputs, with
/// no I/O and no clock of its own (every call gets `now`).
///
/// Two stages, both driven by the serving loop:
/// - ``replies(_:at:)`` when a ``SimulatedDevice/receive(_:at:)`` call returns: drop,
///   duplicate, latency and jitter (these decide *when* bytes go out);
/// - ``prepare(_:isNotification:lineLimit:)`` when bytes fall due, in the order they go
///   out: garbage before lines, sequence numbers on notification lines, and the line
///   count for a disconnect after a number of lines.
///
/// Lines may span outputs (a device may write half a line now and the rest later), so
/// the line position is kept between calls; ``startConnection()`` resets it for a new
/// client. Sequence numbers go on across connections.
struct FaultInjector {
    let plan: FaultPlan
    private var replyRandom: SeededRandomGenerator
    private var garbageRandom: SeededRandomGenerator
    /// When the last reply is due, so that jitter never reorders replies.
    private var lastReplyDue: ContinuousClock.Instant?
    /// Replies delayed so far on this connection (``FaultPlan/latencyStep``).
    private var repliesDelayed = 0
    /// The number the next notification line gets.
    private(set) var nextSequenceNumber = 1
    /// Whether the next byte starts a line.
    private var isAtLineStart = true
    /// Whether the last byte was a CR (so an LF right after it ends no further line).
    private var lastWasCR = false

    /// The longest run of garbage before a line, in bytes.
    static let maximumGarbageLength = 8

    init(plan: FaultPlan) {
        self.plan = plan
        // Each stream its own: the profile's noise is seeded with the same seed, and the
        // two in step dropped the first four replies at `--drop 0.2` with tether's default
        // seed (FaultInjectorTests).
        replyRandom = SeededRandomGenerator(seed: plan.seed ^ 0x7265_706C_6965_7321)
        garbageRandom = SeededRandomGenerator(seed: plan.seed ^ 0x6761_7262_6167_6521)
    }

    /// A new client opened the port: the next byte starts a line.
    mutating func startConnection() {
        isAtLineStart = true
        lastWasCR = false
        lastReplyDue = nil
        repliesDelayed = 0
    }

    /// The outputs of one ``SimulatedDevice/receive(_:at:)`` call, with the reply faults
    /// applied: all `send`s dropped (probability ``FaultPlan/dropProbability``), each
    /// `send`'s bytes doubled (``FaultPlan/duplicateProbability``), and every output
    /// (hang-ups included) delayed by ``FaultPlan/latency`` plus ``FaultPlan/latencyStep``
    /// once for every reply before it on this connection, plus a jitter; with jitter,
    /// never due before the previous reply.
    mutating func replies(_ outputs: [DeviceOutput], at now: ContinuousClock.Instant)
        -> [DeviceOutput]
    {
        guard outputs.contains(where: { if case .send = $0.action { true } else { false } })
        else { return outputs }
        if plan.dropProbability > 0, Double.random(in: 0..<1, using: &replyRandom) < plan.dropProbability {
            return outputs.filter { $0.action == .hangUp }
        }
        var result = outputs
        if plan.duplicateProbability > 0,
            Double.random(in: 0..<1, using: &replyRandom) < plan.duplicateProbability
        {
            result = result.map { output in
                guard case .send(let bytes) = output.action else { return output }
                return DeviceOutput(after: output.delay, .send(bytes + bytes))
            }
        }
        var extra = plan.latency + plan.latencyStep * repliesDelayed
        repliesDelayed += 1
        if plan.jitter > .zero {
            extra += plan.jitter * Double.random(in: 0...1, using: &replyRandom)
            let earliest = result.map(\.delay).min() ?? .zero
            if let lastReplyDue, now + earliest + extra < lastReplyDue {
                extra = lastReplyDue - now - earliest
            }
            lastReplyDue = now + (result.map(\.delay).max() ?? .zero) + extra
        }
        return result.map { DeviceOutput(after: $0.delay + extra, $0.action) }
    }

    /// What ``prepare(_:isNotification:lineLimit:)`` made of some due bytes.
    struct Prepared: Equatable {
        /// The bytes to write.
        var bytes: [UInt8]
        /// How many lines they end (CR LF counts once).
        var linesEnded: Int
        /// Whether `lineLimit` was reached: the bytes stop after that line's terminator.
        var reachedLimit: Bool
    }

    /// Due bytes as they go on the wire: 1 … ``maximumGarbageLength`` garbage bytes
    /// (never CR or LF) before a non-empty line with probability
    /// ``FaultPlan/garbageProbability``; ` seq=<n>` before the terminator of each
    /// non-empty line when `isNotification` and ``FaultPlan/sequenceNumbers``.
    ///
    /// - Parameter lineLimit: stop after this many lines have ended (the bytes after the
    ///   last one are dropped), or `nil`. Lines are counted only when a limit is given,
    ///   garbage or sequence numbers are on (otherwise the bytes pass untouched, fast).
    mutating func prepare(_ bytes: [UInt8], isNotification: Bool, lineLimit: Int? = nil)
        -> Prepared
    {
        guard lineLimit != nil || plan.sequenceNumbers || plan.garbageProbability > 0 else {
            return Prepared(bytes: bytes, linesEnded: 0, reachedLimit: false)
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var linesEnded = 0
        for (index, byte) in bytes.enumerated() {
            let isTerminator = byte == 0x0A || byte == 0x0D
            if isTerminator {
                let continuesCRLF = byte == 0x0A && lastWasCR
                if !continuesCRLF {
                    if isNotification && plan.sequenceNumbers && !isAtLineStart {
                        output += Array(" seq=\(nextSequenceNumber)".utf8)
                        nextSequenceNumber += 1
                    }
                    linesEnded += 1
                }
                output.append(byte)
                lastWasCR = byte == 0x0D
                isAtLineStart = true
                if let lineLimit, linesEnded >= lineLimit {
                    let next = index + 1
                    if byte == 0x0D, next < bytes.count, bytes[next] == 0x0A {
                        output.append(0x0A)
                        lastWasCR = false
                    }
                    return Prepared(bytes: output, linesEnded: linesEnded, reachedLimit: true)
                }
            } else {
                if isAtLineStart {
                    output += garbage()
                    isAtLineStart = false
                }
                lastWasCR = false
                output.append(byte)
            }
        }
        return Prepared(bytes: output, linesEnded: linesEnded, reachedLimit: false)
    }

    /// Garbage for the start of a line: empty, or 1 … ``maximumGarbageLength`` bytes
    /// other than CR and LF.
    private mutating func garbage() -> [UInt8] {
        guard plan.garbageProbability > 0,
            Double.random(in: 0..<1, using: &garbageRandom) < plan.garbageProbability
        else { return [] }
        let length = Int.random(in: 1...Self.maximumGarbageLength, using: &garbageRandom)
        return (0..<length).map { _ in
            var byte = UInt8.random(in: 0...253, using: &garbageRandom)
            if byte >= 0x0A { byte += 1 }
            if byte >= 0x0D { byte += 1 }
            return byte
        }
    }
}
