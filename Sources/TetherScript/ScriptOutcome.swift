import TetherPresenter

/// How the script part of a run ended, as the script thread reports it.
struct ScriptOutcome: Sendable {
    /// How the script's own execution ended.
    enum Ending: Sendable {
        /// It ran to its end.
        case completed
        /// A syntax or runtime error stopped it.
        case failed(ScriptProblem)
        /// A device it used disconnected, which stopped it.
        case deviceLost
    }

    /// How it ended.
    var ending: Ending
    /// Timeouts handed to the script that it never looked at (every timed-out line
    /// of a query file).
    var unhandledTimeouts = 0
    /// Error replies handed to the script that it never looked at.
    var unhandledErrorReplies = 0
}
