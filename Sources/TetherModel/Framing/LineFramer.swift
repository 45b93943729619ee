/// Splits a byte stream into lines, incrementally.
///
/// A line ends at CR, LF or CR LF — devices use all three, and a CR LF pair split
/// across two reads still counts once. Empty lines are reported (dialects decide
/// whether they matter). The framer is a value type with no I/O: feed it every
/// chunk read from the port, in order, with ``append(_:)``; at end of stream,
/// ``finish()`` returns what is left as an ``Line/Ending/unterminated`` line.
///
/// Memory is bounded: after ``maximumLineLength`` bytes without a terminator the
/// bytes so far are returned as an ``Line/Ending/overlong`` line and framing goes
/// on, so a device that never sends a terminator cannot grow the buffer without
/// bound.
public struct LineFramer: Sendable {
    /// The default maximum line length: 64 KiB.
    public static let defaultMaximumLineLength = 65_536

    /// The longest line returned, in bytes (at least 1).
    public let maximumLineLength: Int
    private var buffer: [UInt8] = []
    private var lastByteWasCR = false

    /// Creates a framer.
    ///
    /// - Parameter maximumLineLength: the longest line in bytes; longer runs are cut
    ///   into ``Line/Ending/overlong`` pieces of this size.
    public init(maximumLineLength: Int = LineFramer.defaultMaximumLineLength) {
        self.maximumLineLength = max(1, maximumLineLength)
    }

    /// The bytes received after the last terminator: a line still arriving, or a
    /// prompt that is never terminated (`=> `).
    public var partial: [UInt8] { buffer }

    /// Consumes `bytes` and returns the lines they complete, in order.
    public mutating func append(_ bytes: some Collection<UInt8>) -> [Line] {
        var lines: [Line] = []
        append(bytes) { lines.append($0) }
        return lines
    }

    /// Consumes `bytes` and hands each line they complete to `body`, in order.
    ///
    /// Finds each terminator and copies the bytes before it as one slice (no per-byte
    /// append); only a line that spans reads is assembled in the framer's buffer.
    public mutating func append(_ bytes: some Collection<UInt8>, _ body: (Line) -> Void) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { append(contentsOf: $0, body) }
        if handled == nil { Array(bytes).withUnsafeBufferPointer { append(contentsOf: $0, body) } }
    }

    private mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>, _ body: (Line) -> Void) {
        guard !bytes.isEmpty else { return }
        var start = 0
        if lastByteWasCR, let first = bytes.first, first == 0x0A { start = 1 }
        lastByteWasCR = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x0A || byte == 0x0D else {
                index += 1
                if buffer.count + (index - start) == maximumLineLength {
                    body(take(bytes[start..<index], ending: .overlong))
                    start = index
                }
                continue
            }
            body(take(bytes[start..<index], ending: .terminated))
            index += 1
            if byte == 0x0D {
                if index == bytes.count {
                    lastByteWasCR = true
                } else if bytes[index] == 0x0A {
                    index += 1
                }
            }
            start = index
        }
        buffer.append(contentsOf: bytes[start..<bytes.count])
    }

    /// The buffered start of a line followed by `rest`, as one line; empties the buffer.
    private mutating func take(_ rest: Slice<UnsafeBufferPointer<UInt8>>, ending: Line.Ending) -> Line {
        guard !buffer.isEmpty else { return Line(Array(rest), ending: ending) }
        buffer.append(contentsOf: rest)
        defer { buffer.removeAll(keepingCapacity: true) }
        return Line(buffer, ending: ending)
    }

    /// Removes and returns the partial line (for a dialect that matched a prompt in it).
    public mutating func takePartial() -> [UInt8] {
        defer { buffer.removeAll(keepingCapacity: true) }
        return buffer
    }

    /// Removes the first `count` bytes of the partial line (a reader consumed them,
    /// ``Session/consumePendingText(start:count:now:)``); the line that follows starts after them.
    ///
    /// - Precondition: `count` is at most ``partial``'s count.
    public mutating func removePartialPrefix(_ count: Int) {
        buffer.removeFirst(count)
    }

    /// Ends the stream: returns the bytes after the last terminator, if any, as an
    /// ``Line/Ending/unterminated`` line, and resets the framer.
    public mutating func finish() -> Line? {
        lastByteWasCR = false
        let rest = takePartial()
        return rest.isEmpty ? nil : Line(rest, ending: .unterminated)
    }
}
