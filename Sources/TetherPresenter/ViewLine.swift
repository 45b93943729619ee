/// A line as views receive it: its bytes (terminal control sequences removed), the
/// exact bytes when they differ, how the line ended, which line end ended it, and
/// where its binary payload lies (the Model's `Line`, mirrored).
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

    /// The line end that ended a line.
    public enum LineEnd: String, Sendable, Hashable {
        /// CR (0x0D).
        case cr
        /// LF (0x0A).
        case lf
        /// CR LF.
        case crlf

        /// The line end's bytes.
        public var bytes: [UInt8] {
            switch self {
            case .cr: [0x0D]
            case .lf: [0x0A]
            case .crlf: [0x0D, 0x0A]
            }
        }
    }

    /// The bytes, terminator excluded.
    public var bytes: [UInt8]
    /// How the line ended.
    public var ending: Ending
    /// The bytes exactly as received when control sequences were removed from
    /// ``bytes``; `nil` otherwise.
    public var exactBytes: [UInt8]?
    /// The line end that ended the line, or `nil` (not terminated, or a payload ended it).
    public var terminator: LineEnd?
    /// Where the binary payload lies in ``bytes``, or `nil` for a line without one.
    public var payloadRange: Range<Int>?
    /// The code addresses of a crash report in the line and what the firmware's ELF
    /// file says of each (`--elf`; ``CrashAddressFormat``); empty otherwise.
    public var symbols: [AddressSymbol] = []
    /// The line's log level, as its format writes it (``LogLevel/of(_:)``): set on
    /// notifications; `nil` for a line without one.
    public var level: LogLevel?

    /// Creates a line.
    public init(
        bytes: [UInt8], ending: Ending = .terminated, exactBytes: [UInt8]? = nil, terminator: LineEnd? = nil,
        payloadRange: Range<Int>? = nil
    ) {
        self.bytes = bytes
        self.ending = ending
        self.exactBytes = exactBytes
        self.terminator = terminator
        self.payloadRange = payloadRange
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

    /// The payload's bytes, or `nil`.
    public var payload: ArraySlice<UInt8>? { payloadRange.map { bytes[$0] } }

    /// The line as text: the bytes before its payload and after it, the payload left
    /// out; the line itself when it has none.
    public var outsidePayload: ViewLine {
        guard let payloadRange else { return self }
        let text = Array(bytes[..<payloadRange.lowerBound] + bytes[payloadRange.upperBound...])
        return ViewLine(bytes: text, ending: ending, terminator: terminator)
    }
}
