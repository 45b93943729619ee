import TetherModel

/// Why replies settle from now on (``ViewEvent/settling(_:)``): the Model's
/// `SettlingEvidence` as views show it. docs/DIALECTS.md, "Stray lines".
public struct SettlingNote: Sendable, Equatable {
    /// How the device showed that it speaks unasked; the raw value is JSON's `reason`.
    public enum Reason: String, Sendable, Equatable {
        /// A line nobody took.
        case unasked
        /// A line whose first bytes came before the command in flight was sent.
        case begunBeforeCommand = "begun_before_command"
        /// The same reply to another command than the one before.
        case repeatedReply = "repeated_reply"
        /// A timed-out command's late reply never came.
        case noLateReply = "no_late_reply"
    }

    /// How.
    public var reason: Reason
    /// The line that showed it, or `nil` (``Reason/noLateReply``).
    public var line: ViewLine?
    /// The command whose reply repeated the one before, or whose late reply never
    /// came; `nil` otherwise.
    public var command: String?

    /// Creates a note.
    public init(_ reason: Reason, line: ViewLine? = nil, command: String? = nil) {
        self.reason = reason
        self.line = line
        self.command = command
    }

    /// The note for the Model's evidence.
    init(_ evidence: SettlingEvidence) {
        let reason: Reason =
            switch evidence.kind {
            case .unasked: .unasked
            case .begunBeforeCommand: .begunBeforeCommand
            case .repeatedReply: .repeatedReply
            case .noLateReply: .noLateReply
            }
        self.init(reason, line: evidence.line.map(ViewLine.init), command: evidence.command)
    }
}
