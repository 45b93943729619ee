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
/// bound (shared/cases/CASE-11).
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
    public mutating func append(_ bytes: some Sequence<UInt8>) -> [Line] {
        var lines: [Line] = []
        for byte in bytes {
            switch byte {
            case 0x0A where lastByteWasCR:
                lastByteWasCR = false
            case 0x0A, 0x0D:
                lines.append(Line(buffer))
                buffer.removeAll(keepingCapacity: true)
                lastByteWasCR = byte == 0x0D
            default:
                lastByteWasCR = false
                buffer.append(byte)
                if buffer.count == maximumLineLength {
                    lines.append(Line(buffer, ending: .overlong))
                    buffer.removeAll(keepingCapacity: true)
                }
            }
        }
        return lines
    }

    /// Removes and returns the partial line (for a dialect that matched a prompt in it).
    public mutating func takePartial() -> [UInt8] {
        defer { buffer.removeAll(keepingCapacity: true) }
        return buffer
    }

    /// Ends the stream: returns the bytes after the last terminator, if any, as an
    /// ``Line/Ending/unterminated`` line, and resets the framer.
    public mutating func finish() -> Line? {
        lastByteWasCR = false
        let rest = takePartial()
        return rest.isEmpty ? nil : Line(rest, ending: .unterminated)
    }
}
