/// A line as views receive it: its bytes (terminal control sequences removed), the
/// exact bytes when they differ, and how the line ended.
///
/// Views decide how to show bytes that are not printable (escaped in text, lossless
/// in JSON); the presenter never alters them.
public struct ViewLine: Sendable, Hashable {
    /// How the line ended.
    public enum Ending: String, Sendable, Hashable {
        /// Ended by CR, LF or CR LF.
        case terminated
        /// Cut at the maximum line length; more bytes of the same line follow.
        case overlong
        /// Left without a terminator when the device hung up.
        case unterminated
    }

    /// The bytes, terminator excluded.
    public var bytes: [UInt8]
    /// How the line ended.
    public var ending: Ending
    /// The bytes exactly as received when control sequences were removed from
    /// ``bytes``; `nil` otherwise.
    public var exactBytes: [UInt8]?

    /// Creates a line.
    public init(bytes: [UInt8], ending: Ending = .terminated, exactBytes: [UInt8]? = nil) {
        self.bytes = bytes
        self.ending = ending
        self.exactBytes = exactBytes
    }

    /// Creates a terminated line from text (UTF-8).
    public init(_ text: String) { self.init(bytes: Array(text.utf8)) }

    /// The bytes decoded as UTF-8 (invalid sequences replaced by U+FFFD).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the bytes are valid UTF-8, so ``text`` is exact.
    public var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// Whether ``text`` is exactly what was received: valid UTF-8, nothing removed.
    public var isExact: Bool { exactBytes == nil && isValidUTF8 }

    /// The bytes exactly as received.
    public var receivedBytes: [UInt8] { exactBytes ?? bytes }
}
