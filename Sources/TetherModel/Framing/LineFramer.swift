/// Splits a byte stream into lines, incrementally.
///
/// A line ends at CR, LF or CR LF — devices use all three, and a CR LF pair split
/// across two reads still counts once; the line records which ended it
/// (``Line/terminator``). Empty lines are reported (dialects decide whether they
/// matter). The framer is a value type with no I/O: feed it every chunk read from the
/// port, in order, with ``append(_:)``; at end of stream, ``finish()`` returns what is
/// left as an ``Line/Ending/unterminated`` line.
///
/// **Payloads.** With a ``PayloadFraming`` (the dialect's), a line that starts with one
/// of its ``PayloadFraming/headerStarts`` bytes (or has one after a separator) is shown
/// to it; a header it reads announces a payload, which is taken by count — CR and LF in
/// it are data — and recorded in the line's ``Line/payloadRange``. An indefinite-length
/// block (IEEE 488.2 `#0`) ends at a LF that is the last byte received, once the caller
/// has seen the line stay quiet: ``awaitsEndOfIndefiniteBlock`` and
/// ``endIndefiniteBlock()``. Lines, payloads and pieces are the same however the bytes
/// were cut into reads (`Tests/TetherModelTests/PayloadFramingTests.swift`).
///
/// Memory is bounded: after ``maximumLineLength`` bytes without a terminator the
/// bytes so far are returned as an ``Line/Ending/overlong`` line and framing goes
/// on, so a device that never sends a terminator cannot grow the buffer without
/// bound. A payload longer than that is still taken by count, in overlong pieces that
/// each carry their part of it.
public struct LineFramer: Sendable {
    /// The default maximum line length: 64 KiB.
    public static let defaultMaximumLineLength = 65_536
    /// The most bytes a ``PayloadFraming`` is shown to read a header: 64.
    public static let maximumHeaderLength = 64

    /// The longest line returned, in bytes (at least 1).
    public let maximumLineLength: Int
    /// The framing of binary payloads, or `nil` for lines only.
    public let payloadFraming: (any PayloadFraming)?
    private let headerStarts: ByteSet
    private let separators: ByteSet
    /// The one header start byte looked for inside a line (with ``separators``), or -1:
    /// the inner scan compares it like CR and LF.
    private let insideStart: Int
    private var buffer: [UInt8] = []
    private var lastByteWasCR = false
    private var state = State.text
    /// Where the payload of the line being assembled starts and ends (line offsets).
    private var payloadStart: Int?
    private var payloadEnd: Int?
    /// The line offset of a header start byte read as no header (not read again).
    private var declinedHeaderAt: Int?
    /// Whether a header may still begin in the line being assembled.
    private var seeksHeader = true
    /// The payload length the line being assembled announced (``PayloadHeader/announcing(payloadLength:)``).
    private var announced: Int?
    /// Whether an indefinite-length block's LF was the last byte received.
    public private(set) var awaitsEndOfIndefiniteBlock = false

    private enum State: Sendable {
        case text
        case header(at: Int)
        case payload(remaining: Int, endsLine: Bool)
        case indefinite
    }

    /// Creates a framer.
    ///
    /// - Parameters:
    ///   - maximumLineLength: the longest line in bytes; longer runs are cut into
    ///     ``Line/Ending/overlong`` pieces of this size.
    ///   - payloadFraming: the dialect's payload framing (``Dialect/payloadFraming``),
    ///     or `nil` for lines only.
    public init(
        maximumLineLength: Int = LineFramer.defaultMaximumLineLength, payloadFraming: (any PayloadFraming)? = nil
    ) {
        self.maximumLineLength = max(1, maximumLineLength)
        self.payloadFraming = payloadFraming
        self.headerStarts = ByteSet(payloadFraming?.headerStarts ?? [])
        self.separators = ByteSet(payloadFraming?.separators ?? [])
        let starts = payloadFraming?.headerStarts ?? []
        self.insideStart = separators.isEmpty || starts.count != 1 ? -1 : Int(starts[0])
    }

    /// The bytes received after the last terminator: a line still arriving, or a
    /// prompt that is never terminated (`=> `).
    public var partial: [UInt8] { buffer }

    /// Whether the bytes after the last terminator are a payload being taken by count
    /// (not text: no prompt, no pending text).
    public var isInPayload: Bool {
        switch state {
        case .payload, .indefinite: true
        case .text, .header: false
        }
    }

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
        awaitsEndOfIndefiniteBlock = false
        guard payloadFraming != nil else {
            appendLines(bytes, from: start, body)
            return
        }
        var index = start
        while index < bytes.count {
            switch state {
            case .text:
                scanText(bytes, &start, &index, body)
            case .header(let at):
                guard readHeader(at: at, bytes, &start, &index, body) else { return }
            case .payload(let remaining, let endsLine):
                takePayload(remaining, endsLine: endsLine, bytes, &start, &index, body)
            case .indefinite:
                takeIndefinite(bytes, &start, &index, body)
            }
        }
        buffer.append(contentsOf: bytes[start..<bytes.count])
    }

    /// Lines only (no payload framing): the hot path.
    private mutating func appendLines(_ bytes: UnsafeBufferPointer<UInt8>, from first: Int, _ body: (Line) -> Void) {
        var start = first
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
            index = endLine(bytes, start: start, terminatorAt: index, body)
            start = index
        }
        buffer.append(contentsOf: bytes[start..<bytes.count])
    }

    /// Ends the line at the CR or LF at `terminatorAt`; returns the index after its
    /// terminator (CR LF counts once, also split across reads).
    private mutating func endLine(
        _ bytes: UnsafeBufferPointer<UInt8>, start: Int, terminatorAt index: Int, _ body: (Line) -> Void
    ) -> Int {
        var end = index + 1
        var terminator = Terminator.lf
        if bytes[index] == 0x0D {
            terminator = .cr
            if end == bytes.count {
                lastByteWasCR = true
            } else if bytes[end] == 0x0A {
                end += 1
                terminator = .crlf
            }
        }
        body(take(bytes[start..<index], ending: .terminated, terminator: terminator))
        return end
    }

    /// Text with a payload framing: stops at terminators and at header start bytes
    /// where a header may begin.
    private mutating func scanText(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: inout Int, _ index: inout Int, _ body: (Line) -> Void
    ) {
        while index < bytes.count {
            let scansInside = seeksHeader && !separators.isEmpty
            let lineLength = buffer.count + (index - start)
            if lineLength >= maximumLineLength {
                body(take(bytes[start..<index], ending: .overlong))
                start = index
                continue
            }
            let byte = bytes[index]
            if seeksHeader, lineLength != declinedHeaderAt, headerStarts.contains(byte),
                lineLength == 0 || separators.contains(index > start ? bytes[index - 1] : buffer[buffer.count - 1])
            {
                state = .header(at: lineLength)
                return
            }
            if byte == 0x0A || byte == 0x0D {
                index = endLine(bytes, start: start, terminatorAt: index, body)
                start = index
                if let announced {
                    self.announced = nil
                    if announced > 0 {
                        payloadStart = 0
                        seeksHeader = false
                        state = .payload(remaining: announced, endsLine: true)
                        return
                    }
                }
                continue
            }
            let limit = min(bytes.count, index + (maximumLineLength - lineLength))
            index += 1
            if scansInside && insideStart < 0 {
                while index < limit, !headerStarts.contains(bytes[index]), bytes[index] != 0x0A, bytes[index] != 0x0D {
                    index += 1
                }
            } else {
                let stop = scansInside ? insideStart : 0x0A
                while index < limit {
                    let next = bytes[index]
                    if next == 0x0A || next == 0x0D || Int(next) == stop { break }
                    index += 1
                }
            }
        }
    }

    /// Shows the framing the header that begins at line offset `at`; `false` when it
    /// needs more bytes (the chunk's bytes are then buffered).
    private mutating func readHeader(
        at: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ start: inout Int, _ index: inout Int,
        _ body: (Line) -> Void
    ) -> Bool {
        var candidate: [UInt8] = at < buffer.count ? Array(buffer[at...]) : []
        let chunkFrom = start + max(0, at - buffer.count)
        let chunkTo = min(bytes.count, chunkFrom + (Self.maximumHeaderLength - candidate.count))
        candidate += bytes[chunkFrom..<chunkTo]
        var header = payloadFraming?.header(in: candidate[...]) ?? .notAHeader
        // A header with the text before it longer than a line is none: no piece is
        // longer than the maximum (`#0` with a 1-byte maximum line). One still incomplete
        // that already reaches the maximum will be longer (`#5` of `#5xxxxx`).
        switch header {
        case .block(let headerLength, _, _) where at + headerLength > maximumLineLength: header = .notAHeader
        case .indefinite(let headerLength) where at + headerLength > maximumLineLength: header = .notAHeader
        case .incomplete where at + candidate.count >= maximumLineLength: header = .notAHeader
        default: break
        }
        /// The chunk index of line offset `offset` (at or after the buffered bytes).
        func position(_ offset: Int) -> Int { start + (offset - buffer.count) }
        switch header {
        case .incomplete where candidate.count < Self.maximumHeaderLength:
            buffer.append(contentsOf: bytes[start..<bytes.count])
            start = bytes.count
            index = bytes.count
            return false
        case .incomplete, .notAHeader:
            declinedHeaderAt = at
            state = .text
            guard at < buffer.count else {
                index = position(at)
                return true
            }
            // The header began in an earlier read: its bytes are framed again as text.
            let again = Array(buffer[at...]) + Array(bytes[start..<bytes.count])
            buffer.removeSubrange(at...)
            start = bytes.count
            index = bytes.count
            again.withUnsafeBufferPointer { append(contentsOf: $0, body) }
            return false
        case .block(let headerLength, let payloadLength, let endsLine):
            seeksHeader = false
            payloadStart = at + headerLength
            index = position(at + headerLength)
            state = .payload(remaining: payloadLength, endsLine: endsLine)
        case .indefinite(let headerLength):
            seeksHeader = false
            payloadStart = at + headerLength
            index = position(at + headerLength)
            state = .indefinite
        case .announcing(let payloadLength):
            seeksHeader = false
            announced = payloadLength
            // The header's bytes from earlier reads hold no terminator (it ends at one).
            index = max(start, position(at))
            state = .text
        }
        return true
    }

    /// Takes up to `remaining` payload bytes.
    private mutating func takePayload(
        _ remaining: Int, endsLine: Bool, _ bytes: UnsafeBufferPointer<UInt8>, _ start: inout Int,
        _ index: inout Int, _ body: (Line) -> Void
    ) {
        let lineLength = buffer.count + (index - start)
        if lineLength >= maximumLineLength && remaining > 0 {
            body(take(bytes[start..<index], ending: .overlong))
            start = index
            return
        }
        let taken = min(remaining, bytes.count - index, maximumLineLength - lineLength)
        index += taken
        guard taken == remaining else {
            state = .payload(remaining: remaining - taken, endsLine: endsLine)
            return
        }
        payloadEnd = lineLength + taken
        state = .text
        if endsLine {
            body(take(bytes[start..<index], ending: .terminated))
            start = index
        }
    }

    /// Takes an indefinite-length block's bytes: all that came; a LF that is the last
    /// of them may end it (``endIndefiniteBlock()``).
    private mutating func takeIndefinite(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: inout Int, _ index: inout Int, _ body: (Line) -> Void
    ) {
        let lineLength = buffer.count + (index - start)
        if lineLength >= maximumLineLength {
            body(take(bytes[start..<index], ending: .overlong))
            start = index
            return
        }
        index = min(bytes.count, index + (maximumLineLength - lineLength))
        awaitsEndOfIndefiniteBlock = index == bytes.count && bytes[index - 1] == 0x0A
    }

    /// The buffered start of a line followed by `rest`, as one line; empties the buffer
    /// and starts the next line (or the next piece of an overlong one).
    private mutating func take(
        _ rest: Slice<UnsafeBufferPointer<UInt8>>, ending: Line.Ending, terminator: Terminator? = nil
    ) -> Line {
        var line: Line
        if buffer.isEmpty {
            line = Line(Array(rest), ending: ending, terminator: terminator)
        } else {
            buffer.append(contentsOf: rest)
            line = Line(buffer, ending: ending, terminator: terminator)
            buffer.removeAll(keepingCapacity: true)
        }
        if let payloadStart {
            line.payloadRange = min(payloadStart, line.bytes.count)..<(payloadEnd ?? line.bytes.count)
        }
        if ending == .overlong {
            // The next piece goes on with the same line: a payload still being taken
            // continues at its start; no header begins there.
            payloadStart = isInPayload ? 0 : nil
            payloadEnd = nil
            declinedHeaderAt = nil
            seeksHeader = false
        } else {
            resetLine()
        }
        return line
    }

    /// Forgets what the framer knew of the line being assembled.
    private mutating func resetLine() {
        payloadStart = nil
        payloadEnd = nil
        declinedHeaderAt = nil
        seeksHeader = true
        if case .header = state { state = .text }
    }

    /// Ends the indefinite-length block whose LF was the last byte received
    /// (``awaitsEndOfIndefiniteBlock``), because no byte followed it for the quiet period
    /// the caller chose (IEEE 488.2 ends the block with NL^END; a serial line has no END
    /// message): returns its line — the LF is its terminator, not payload — or `nil`
    /// when no block awaits its end.
    public mutating func endIndefiniteBlock() -> Line? {
        guard awaitsEndOfIndefiniteBlock else { return nil }
        awaitsEndOfIndefiniteBlock = false
        buffer.removeLast()
        state = .text
        let line = Line(
            buffer, ending: .terminated, terminator: .lf,
            payloadRange: min(payloadStart ?? 0, buffer.count)..<buffer.count)
        buffer.removeAll(keepingCapacity: true)
        resetLine()
        return line
    }

    /// Removes and returns the partial line (for a dialect that matched a prompt in it).
    public mutating func takePartial() -> [UInt8] {
        defer {
            buffer.removeAll(keepingCapacity: true)
            resetLine()
        }
        return buffer
    }

    /// Removes the first `count` bytes of the partial line (a reader consumed them,
    /// ``Session/consumePendingText(start:count:now:)``); the line that follows starts after them.
    ///
    /// - Precondition: `count` is at most ``partial``'s count.
    public mutating func removePartialPrefix(_ count: Int) {
        buffer.removeFirst(count)
        declinedHeaderAt = declinedHeaderAt.map { $0 - count }
        if case .header(let at) = state { state = at >= count ? .header(at: at - count) : .text }
    }

    /// Ends the stream: returns the bytes after the last terminator, if any, as an
    /// ``Line/Ending/unterminated`` line (with the part of a payload it holds), and
    /// resets the framer. An indefinite-length block whose LF came last ends there.
    public mutating func finish() -> Line? {
        lastByteWasCR = false
        if let block = endIndefiniteBlock() { return block }
        announced = nil
        let (start, end) = (payloadStart, payloadEnd)
        state = .text
        let rest = takePartial()
        guard !rest.isEmpty else { return nil }
        let payloadRange = start.map { min($0, rest.count)..<(end ?? rest.count) }
        return Line(rest, ending: .unterminated, payloadRange: payloadRange)
    }
}

/// A set of byte values, held inline (no allocation): the framer's header start bytes
/// and separators.
private struct ByteSet: Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init(_ bytes: [UInt8]) {
        for byte in bytes {
            let bit = UInt64(1) << UInt64(byte & 63)
            switch byte >> 6 {
            case 0: words.0 |= bit
            case 1: words.1 |= bit
            case 2: words.2 |= bit
            default: words.3 |= bit
            }
        }
    }

    var isEmpty: Bool { words.0 | words.1 | words.2 | words.3 == 0 }

    func contains(_ byte: UInt8) -> Bool {
        let word =
            switch byte >> 6 {
            case 0: words.0
            case 1: words.1
            case 2: words.2
            default: words.3
            }
        return word >> UInt64(byte & 63) & 1 == 1
    }
}
