/// What a device says unasked, learned from the lines it sent while nothing was in
/// flight, so that such lines stop being taken as replies (``Session``, dialects with
/// ``Dialect/repliesAreUnmarked``: `line`, `scpi`).
///
/// A line's **shape** is its text with every run of digits (and a sign or decimal
/// point in it) as one `9` and runs of blanks as one space: `T=21.4C` and `T=-3.0C` are
/// both `T=9C`. A shape seen ``sightingsToLearn`` times unasked — a line nobody took
/// while no request was in flight or settling, or one that began before the request in
/// flight was sent — is learned; from then on a line of that shape is a notification,
/// never a reply. A request that times out while lines of learned shapes were turned
/// away during it may have been answered by one of them: those shapes are forgotten and
/// never learned again. docs/DIALECTS.md, "Stray lines", says where this cannot help.
struct UnaskedLines: Sendable {
    /// Sightings before a shape is learned: two, so one stray (a late answer after its
    /// request gave up) teaches nothing.
    static let sightingsToLearn = 2
    /// The most shapes kept (counted and learned together); later ones are not kept.
    static let maximumShapes = 64
    /// Lines longer than this many bytes have no shape (a dump, not a reading).
    static let maximumLength = 256

    private var sightings: [[UInt8]: Int] = [:]
    /// The learned shapes, at most ``maximumShapes`` (each was counted in ``sightings``
    /// first): a short list, matched against a line without building its shape.
    private var learned: [[UInt8]] = []
    /// Shapes a timed-out request may have been answered with: never learned.
    private var refused: Set<[UInt8]> = []
    /// The shapes turned away while the request in flight waited: bit `i` for
    /// `learned[i]` (``maximumShapes`` is 64, so one word holds them all).
    private var turnedAway: UInt64 = 0

    /// The shape of `line` (UTF-8 bytes), or `nil` for an empty, overlong or payload line.
    static func shape(of line: Line) -> [UInt8]? {
        guard hasShape(line) else { return nil }
        return line.bytes.withUnsafeBufferPointer { bytes in
            var shape: [UInt8] = []
            shape.reserveCapacity(bytes.count)
            var reader = ShapeReader(bytes)
            while let byte = reader.next() { shape.append(byte) }
            return shape
        }
    }

    /// Whether the shape of `line` is `shape`, found without building it: a fast
    /// device's every line is matched against the learned shapes while a request is in
    /// flight.
    static func line(_ line: Line, hasShape shape: [UInt8]) -> Bool {
        guard hasShape(line) else { return false }
        return line.bytes.withUnsafeBufferPointer { bytes in matches(bytes, shape) }
    }

    /// Whether the shape of `bytes` is `shape`.
    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ shape: [UInt8]) -> Bool {
        guard shape.count <= bytes.count else { return false }
        return shape.withUnsafeBufferPointer { shape in
            var reader = ShapeReader(bytes)
            for expected in shape {
                guard reader.next() == expected else { return false }
            }
            return reader.next() == nil
        }
    }

    /// Whether `line` has a shape: it is not empty, overlong or a payload line.
    private static func hasShape(_ line: Line) -> Bool {
        !line.bytes.isEmpty && line.bytes.count <= maximumLength && line.payloadRange == nil
    }

    /// `line` came unasked.
    mutating func saw(_ line: Line) {
        guard let shape = Self.shape(of: line), !learned.contains(shape), !refused.contains(shape) else { return }
        guard sightings[shape] != nil || sightings.count < Self.maximumShapes else { return }
        sightings[shape, default: 0] += 1
        if sightings[shape]! >= Self.sightingsToLearn { learned.append(shape) }
    }

    /// Whether `line` has a learned shape: it is then turned away (a notification),
    /// and remembered until the request in flight ends.
    mutating func turnsAway(_ line: Line) -> Bool {
        guard !learned.isEmpty, Self.hasShape(line) else { return false }
        let index = line.bytes.withUnsafeBufferPointer { bytes in
            learned.firstIndex { Self.matches(bytes, $0) }
        }
        guard let index else { return false }
        turnedAway |= 1 << index
        return true
    }

    /// A request was sent: nothing was turned away while it waited yet.
    mutating func requestSent() {
        turnedAway = 0
    }

    /// The request in flight got no reply: the shapes turned away while it waited may
    /// have been its answer, and are not learned again.
    mutating func requestGotNoReply() {
        for index in learned.indices.reversed() where turnedAway & (1 << index) != 0 {
            let shape = learned.remove(at: index)
            sightings[shape] = nil
            refused.insert(shape)
        }
        turnedAway = 0
    }
}

/// Reads the shape of a line's bytes (``UnaskedLines``) one byte at a time: a run of
/// digits (with a sign or decimal point in it) is one `9`, a run of blanks one space;
/// each run is skipped whole.
private struct ShapeReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next byte of the shape, or `nil` at its end.
    @inline(__always)
    mutating func next() -> UInt8? {
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        if startsNumber(at: index) {
            index += 1
            while index < bytes.count, bytes[index] == 0x2E || startsNumber(at: index) { index += 1 }
            return 0x39
        }
        index += 1
        guard byte == 0x20 || byte == 0x09 else { return byte }
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return 0x20
    }

    /// Whether a number starts at `index`: a digit, or a sign or decimal point before one.
    @inline(__always)
    private func startsNumber(at index: Int) -> Bool {
        let byte = bytes[index]
        if Self.isDigit(byte) { return true }
        guard byte == 0x2D || byte == 0x2B || byte == 0x2E, index + 1 < bytes.count else { return false }
        return Self.isDigit(bytes[index + 1])
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
}
