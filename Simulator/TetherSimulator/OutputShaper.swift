/// The queue of bytes waiting to be written to the master, and when each piece may go:
/// split writes and baud-rate pacing (``FaultPlan/splitMaximum``, ``FaultPlan/paceBaud``).
/// A value with no I/O: the serving loop asks ``nextWrite(at:)`` what to write, writes
/// it, and reports with ``didWrite(_:at:)`` how much the pseudo-terminal took.
///
/// Without faults, each enqueued output is one piece written as soon as possible (the
/// rest later when the client's input queue is full). Large outputs (64 MiB in
/// `LosslessEndToEndTests.aReaderThatPausesLosesNothingAndMemoryStaysBounded`)
/// are consumed by an offset, never copied down.
struct OutputShaper {
    private struct Piece {
        var bytes: [UInt8]
        var offset = 0
        var notBefore: ContinuousClock.Instant
    }

    /// How long pacing lets bytes accumulate: at each write, the bytes of up to this much
    /// line time go out together (so 9600 baud is ~4 writes of ~4 bytes per 16 ms, not a
    /// `write()` per byte).
    static let pacingWindow: Duration = .milliseconds(4)

    private let splitMaximum: Int?
    private let splitGap: Duration
    /// The wire time of one byte (10 bits), or `nil` when not paced.
    private let byteTime: Duration?
    private var random: SeededRandomGenerator
    private var pieces: [Piece] = []
    private var first = 0
    /// When the paced line is free for the next byte.
    private var lineFreeAt: ContinuousClock.Instant?

    init(plan: FaultPlan) {
        splitMaximum = plan.splitMaximum.map { max(1, $0) }
        splitGap = plan.splitGap
        byteTime = plan.paceBaud.map { .seconds(10) / max(1, $0) }
        random = SeededRandomGenerator(seed: plan.seed ^ 0x7370_6C69_7420_2121)
    }

    /// Whether nothing waits to be written.
    var isEmpty: Bool { first == pieces.count }

    /// Queues `bytes` behind what is already queued. With splitting they become pieces of
    /// 1 … `splitMaximum` bytes, each after a random gap of 0 … `splitGap` from the one
    /// before.
    mutating func enqueue(_ bytes: [UInt8], at now: ContinuousClock.Instant) {
        guard !bytes.isEmpty else { return }
        var notBefore = max(now, pieces.last?.notBefore ?? now)
        guard let splitMaximum else {
            pieces.append(Piece(bytes: bytes, notBefore: notBefore))
            return
        }
        var start = 0
        while start < bytes.count {
            let length = min(Int.random(in: 1...splitMaximum, using: &random), bytes.count - start)
            if !isEmpty || start > 0 {
                notBefore += splitGap * Double.random(in: 0...1, using: &random)
            }
            pieces.append(Piece(bytes: Array(bytes[start..<start + length]), notBefore: notBefore))
            start += length
        }
    }

    /// When the next bytes may be written, or `nil` when nothing is queued.
    var nextDue: ContinuousClock.Instant? {
        guard !isEmpty else { return nil }
        let due = pieces[first].notBefore
        guard let lineFreeAt else { return due }
        return max(due, lineFreeAt)
    }

    /// The bytes to write at `now` (one `write()`), or `nil` when none are due.
    func nextWrite(at now: ContinuousClock.Instant) -> ArraySlice<UInt8>? {
        guard let due = nextDue, due <= now else { return nil }
        let piece = pieces[first]
        var end = piece.bytes.count
        if let byteTime {
            let allowance = max(1, Int(Self.pacingWindow / byteTime))
            end = min(end, piece.offset + allowance)
        }
        return piece.bytes[piece.offset..<end]
    }

    /// The pseudo-terminal took `count` bytes of the last ``nextWrite(at:)`` at `now`.
    mutating func didWrite(_ count: Int, at now: ContinuousClock.Instant) {
        guard count > 0, !isEmpty else { return }
        pieces[first].offset += count
        if pieces[first].offset == pieces[first].bytes.count {
            pieces[first].bytes = []
            first += 1
            if first == pieces.count || first > 64 {
                pieces.removeFirst(first)
                first = 0
            }
        }
        if let byteTime {
            // Late by less than a window: catch up, so the average rate stays exact.
            let start = max(lineFreeAt ?? now, now - Self.pacingWindow)
            lineFreeAt = start + byteTime * count
        }
    }

    /// Drops everything queued (the client left).
    mutating func removeAll() {
        pieces.removeAll()
        first = 0
    }
}
