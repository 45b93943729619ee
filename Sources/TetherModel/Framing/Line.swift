/// One line received from the device: its bytes, without the terminator.
///
/// Bytes are kept as received — NUL, 0x11/0x13 and bytes that are not UTF-8
/// included — so nothing is lost between the port and the views; views decide how to
/// show them. The one change the ``Session`` makes is to remove terminal control
/// sequences (``ControlSequences``) from ``bytes`` of a line without a payload; the
/// exact bytes are then in ``exactBytes``.
///
/// A line may carry a binary payload the dialect's ``PayloadFraming`` announced (an
/// IEEE 488.2 block, an ESP-AT `+IPD` payload): ``payloadRange`` says where it lies in
/// ``bytes``. Its bytes were taken by count, never cut at CR or LF.
///
/// Two lines are equal when their bytes, ending, exact bytes and payload are: the
/// ``terminator`` says how a line arrived, not what it says.
public struct Line: Sendable, Hashable {
    /// How the line ended.
    public enum Ending: String, Sendable, Hashable {
        /// Complete: ended by CR, LF or CR LF (``Line/terminator``), or by the end of a
        /// payload that ends its line (ESP-AT `+IPD`, ``Line/terminator`` `nil`).
        case terminated
        /// Cut at the maximum line length; more bytes of the same line follow.
        case overlong
        /// The bytes left when the stream ended (hang-up) without a terminator.
        case unterminated
    }

    /// The line's bytes, terminator excluded.
    public var bytes: [UInt8]
    /// How the line ended.
    public var ending: Ending
    /// The bytes exactly as received, when they differ from ``bytes`` (control
    /// sequences were removed); `nil` otherwise.
    public var exactBytes: [UInt8]?
    /// The line end that ended the line (CR, LF or CR LF), or `nil`: the line is not
    /// ``Ending/terminated``, or a payload ended it. A CR LF pair split across two reads
    /// is reported as CR — the line is delivered when its CR arrives, not held for a
    /// byte that may never come — and its LF is consumed.
    public var terminator: Terminator?
    /// Where the payload lies in ``bytes`` (e.g. `6..<2006` for `#42000` and 2000 bytes),
    /// or `nil` for a line without one. An ``Ending/overlong`` piece of a payload holds
    /// the part of it that piece has.
    public var payloadRange: Range<Int>?

    /// Creates a line from its bytes.
    public init(
        _ bytes: [UInt8], ending: Ending = .terminated, terminator: Terminator? = nil, payloadRange: Range<Int>? = nil
    ) {
        self.bytes = bytes
        self.ending = ending
        self.terminator = terminator
        self.payloadRange = payloadRange
    }

    /// Creates a terminated line from text (UTF-8).
    public init(_ text: String) {
        self.init(Array(text.utf8))
    }

    /// The bytes decoded as UTF-8, invalid sequences replaced by U+FFFD. For
    /// matching and display only; ``bytes`` is the exact value.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The bytes exactly as received: ``exactBytes``, or ``bytes`` when nothing was removed.
    public var receivedBytes: [UInt8] { exactBytes ?? bytes }

    /// Whether the line holds no bytes.
    public var isEmpty: Bool { bytes.isEmpty }

    /// The payload's bytes, or `nil` for a line without one.
    public var payload: ArraySlice<UInt8>? { payloadRange.map { bytes[$0] } }

    /// The line's text with its payload left out (the header before it and what
    /// follows it): what a dialect matches, since a payload's bytes say nothing of the
    /// reply's shape. The whole ``text`` for a line without a payload.
    public var textOutsidePayload: String {
        guard let payloadRange else { return text }
        return String(decoding: bytes[..<payloadRange.lowerBound] + bytes[payloadRange.upperBound...], as: UTF8.self)
    }

    public static func == (left: Line, right: Line) -> Bool {
        left.bytes == right.bytes && left.ending == right.ending && left.exactBytes == right.exactBytes
            && left.payloadRange == right.payloadRange
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes)
        hasher.combine(ending)
        hasher.combine(exactBytes)
        hasher.combine(payloadRange)
    }
}
