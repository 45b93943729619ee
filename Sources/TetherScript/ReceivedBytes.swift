import FoundationEssentials

/// One device's received bytes that a Lua script has not read yet (`dev.read`,
/// docs/SCRIPTING.md "Raw bytes"): a first-in first-out buffer of at most ``limit``
/// bytes. When more arrive the oldest are dropped and counted, so the run can say how
/// many a reader missed.
///
/// The bytes are the port's reads exactly as they came; the same bytes are also framed
/// into lines as usual.
struct ReceivedBytes {
    /// The most bytes held: 1 MiB (1 048 576 bytes).
    static let limit = 1 << 20

    private var bytes: [UInt8] = []
    private var head = 0
    /// Bytes dropped unread since ``takeDropped()`` last took the count.
    private var dropped = 0
    /// Chunks read from the port before this instant are dropped on arrival: they were
    /// read before a ``discardAll(at:)`` and only reach the buffer after it.
    private var discardedBefore: Date?
    /// Whether the script thread was told of bytes it has not looked at since.
    private var isAnnounced = false
    /// Whether the script has read from (or discarded) this buffer.
    private(set) var hasReader = false

    /// How many bytes wait to be read.
    var count: Int { bytes.count - head }

    /// Appends a chunk read from the port at `time`.
    ///
    /// - Returns: whether the script thread should be woken to look at it (once
    ///   between two looks).
    mutating func append(_ chunk: [UInt8], readAt time: Date) -> Bool {
        if let discardedBefore, time < discardedBefore { return false }
        bytes += chunk
        let excess = count - Self.limit
        if excess > 0 {
            dropped += excess
            head += excess
        }
        if head >= 65_536, head * 2 >= bytes.count {
            bytes.removeFirst(head)
            head = 0
        }
        defer { isAnnounced = true }
        return !isAnnounced
    }

    /// Takes exactly `wanted` bytes when that many are waiting; else, when
    /// `acceptsFewer`, the 1 to `wanted - 1` bytes waiting; else nothing.
    mutating func take(_ wanted: Int, acceptsFewer: Bool) -> [UInt8]? {
        hasReader = true
        isAnnounced = false
        let taken = min(wanted, count)
        guard taken == wanted || (acceptsFewer && taken > 0) else { return nil }
        defer { head += taken }
        return Array(bytes[head..<(head + taken)])
    }

    /// Drops every byte waiting, and the chunks read before `time` that arrive later.
    ///
    /// - Returns: how many bytes were dropped now.
    mutating func discardAll(at time: Date) -> Int {
        hasReader = true
        isAnnounced = false
        defer {
            bytes.removeAll()
            head = 0
            discardedBefore = time
        }
        return count
    }

    /// The count of bytes dropped unread since the last call, reset to 0.
    mutating func takeDropped() -> Int {
        defer { dropped = 0 }
        return dropped
    }
}
