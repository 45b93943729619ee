/// One line received from the device: its bytes, without the terminator.
///
/// Bytes are kept as received — NUL, 0x11/0x13 and bytes that are not UTF-8
/// included — so nothing is lost between the port and the views; views decide how to
/// show them. The one change the ``Session`` makes is to remove terminal control
/// sequences (``ControlSequences``) from ``bytes``; the exact bytes are then in
/// ``exactBytes``.
public struct Line: Sendable, Hashable {
    /// How the line ended.
    public enum Ending: String, Sendable, Hashable {
        /// Ended by CR, LF or CR LF.
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

    /// Creates a line from its bytes.
    public init(_ bytes: [UInt8], ending: Ending = .terminated) {
        self.bytes = bytes
        self.ending = ending
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
}
