import Synchronization

/// A sink in front of another that, during a batch (``batch(_:)``), holds what is
/// written and passes it on at the batch's end in one write — so a view rendering the
/// records a device delivered together (``DeviceView/renderBatch(_:)``) costs one
/// `write(2)` for all of them instead of one per record. Outside a batch every write
/// is passed on at once, as ``OutputSink`` says.
///
/// Each write is kept whole: what is held is passed on at a write's boundary, also
/// when it reaches ``limit`` bytes mid-batch, so a record written with one call is
/// never split between two writes (a ``FileSink`` cuts a failed write back whole:
/// the file keeps whole records only).
final class BatchingSink: OutputSink {
    /// The bytes held before they are passed on mid-batch: 64 KiB.
    static let limit = 65_536

    private struct Held {
        /// How many batches are open (nested calls of ``batch(_:)``).
        var depth = 0
        var bytes: [UInt8] = []
    }

    let base: any OutputSink
    private let held = Mutex(Held())

    /// Wraps `base`.
    init(_ base: any OutputSink) { self.base = base }

    var isTerminal: Bool { base.isTerminal }
    var columns: Int? { base.columns }

    func write(_ text: String) {
        var text = text
        if !text.withUTF8({ hold($0) }) { base.write(text) }
    }

    func write(bytes: [UInt8]) {
        if !bytes.withUnsafeBufferPointer({ hold($0) }) { base.write(bytes: bytes) }
    }

    /// Writes what `build` appends to the bytes it is given: during a batch, straight
    /// into what is held (no buffer of its own per write); outside one, at once. Like
    /// any write, it is kept whole. `build` runs under the sink's lock: it must only
    /// append.
    func write(building build: (inout [UInt8]) -> Void) {
        let full = held.withLock { held -> [UInt8]? in
            guard held.depth > 0 else { return nil }
            build(&held.bytes)
            return held.bytes.count >= Self.limit ? take(&held) : []
        }
        if let full {
            if !full.isEmpty { base.write(bytes: full) }
            return
        }
        var bytes: [UInt8] = []
        build(&bytes)
        base.write(bytes: bytes)
    }

    /// Runs `body` holding what is written meanwhile, then passes it on in one write.
    func batch(_ body: () -> Void) {
        held.withLock { $0.depth += 1 }
        defer {
            let bytes = held.withLock { held in
                held.depth -= 1
                return held.depth == 0 ? take(&held) : []
            }
            if !bytes.isEmpty { base.write(bytes: bytes) }
        }
        body()
    }

    /// Passes on what is held now (before a write that goes elsewhere, such as a
    /// diagnostic on standard error, so the two streams keep their order).
    func flush() {
        let bytes = held.withLock { take(&$0) }
        if !bytes.isEmpty { base.write(bytes: bytes) }
    }

    /// Appends `bytes` to what is held when a batch is open, passing it all on once it
    /// reaches ``limit``. Returns `false` outside a batch: the caller writes them.
    private func hold(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let (isHeld, full) = held.withLock { held -> (Bool, [UInt8]) in
            guard held.depth > 0 else { return (false, []) }
            held.bytes.append(contentsOf: bytes)
            return (true, held.bytes.count >= Self.limit ? take(&held) : [])
        }
        if !full.isEmpty { base.write(bytes: full) }
        return isHeld
    }

    private func take(_ held: inout Held) -> [UInt8] {
        guard !held.bytes.isEmpty else { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(held.bytes.count)
        swap(&bytes, &held.bytes)
        return bytes
    }
}
