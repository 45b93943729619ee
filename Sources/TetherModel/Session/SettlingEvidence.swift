/// What showed that a device without reply markers (`line`, `scpi`) speaks unasked, so
/// its replies settle from then on (``Session``, docs/DIALECTS.md, "Stray lines";
/// ``SessionEvent/settling(_:)``).
public struct SettlingEvidence: Sendable, Equatable {
    /// How the device showed it.
    public enum Kind: Sendable, Equatable {
        /// A line nobody took: a notification no pattern names, a reply nobody asked for.
        case unasked
        /// A line whose first bytes arrived before the command in flight was sent.
        case begunBeforeCommand
        /// The same reply to another command than the one before (an error reply, or
        /// one with no digit in it, an acknowledgement such as `OK`, is never a repeat).
        case repeatedReply
        /// A timed-out request's late reply never came: the device may still send it.
        case noLateReply
    }

    /// How.
    public var kind: Kind
    /// The line that showed it (``Kind/unasked``, ``Kind/begunBeforeCommand``, the
    /// reply's first line for ``Kind/repeatedReply``), or `nil`.
    public var line: Line?
    /// The command concerned: the one whose reply repeated the one before, or the one
    /// whose late reply never came; `nil` otherwise.
    public var command: String?

    /// Creates evidence.
    public init(_ kind: Kind, line: Line? = nil, command: String? = nil) {
        self.kind = kind
        self.line = line
        self.command = command
    }
}
