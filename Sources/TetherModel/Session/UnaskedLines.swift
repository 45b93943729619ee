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
        var shape: [UInt8] = []
        shape.reserveCapacity(line.bytes.count)
        _ = forEachShapeByte(of: line.bytes) { byte in
            shape.append(byte)
            return true
        }
        return shape
    }

    /// Whether the shape of `line` is `shape`, found without building it: a fast
    /// device's every line is matched against the learned shapes while a request is in
    /// flight.
    static func line(_ line: Line, hasShape shape: [UInt8]) -> Bool {
        guard hasShape(line), shape.count <= line.bytes.count else { return false }
        return shape.withUnsafeBufferPointer { shape in
            var matched = 0
            let isPrefix = forEachShapeByte(of: line.bytes) { byte in
                guard matched < shape.count, shape[matched] == byte else { return false }
                matched += 1
                return true
            }
            return isPrefix && matched == shape.count
        }
    }

    /// Whether `line` has a shape: it is not empty, overlong or a payload line.
    private static func hasShape(_ line: Line) -> Bool {
        !line.bytes.isEmpty && line.bytes.count <= maximumLength && line.payloadRange == nil
    }

    /// Hands each byte of the shape of `bytes` to `body`, in order, while it returns
    /// `true`.
    ///
    /// - Returns: `false` when `body` stopped it.
    @inline(__always)
    private static func forEachShapeByte(of bytes: [UInt8], _ body: (UInt8) -> Bool) -> Bool {
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        return bytes.withUnsafeBufferPointer { bytes in
            var inNumber = false
            var inBlank = false
            for index in bytes.indices {
                let byte = bytes[index]
                let next = index + 1 < bytes.count ? bytes[index + 1] : 0x20
                let startsNumber = (byte == 0x2D || byte == 0x2B || byte == 0x2E) && isDigit(next)
                if isDigit(byte) || startsNumber || (inNumber && byte == 0x2E) {
                    if !inNumber, !body(0x39) { return false }
                    inNumber = true
                    inBlank = false
                } else if byte == 0x20 || byte == 0x09 {
                    if !inBlank, !body(0x20) { return false }
                    inNumber = false
                    inBlank = true
                } else {
                    if !body(byte) { return false }
                    inNumber = false
                    inBlank = false
                }
            }
            return true
        }
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
        guard !learned.isEmpty, let index = learned.firstIndex(where: { Self.line(line, hasShape: $0) }) else {
            return false
        }
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
