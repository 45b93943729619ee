import Synchronization
import TetherViews

/// The `--log FILE` of a command: the JSON view writing to the file (appended to, see
/// ``FileSink/appending(toFile:onFailure:)``), and what happens when it can no longer
/// be written.
///
/// A write that fails (a full disk) ends the session with an error, never silently, and
/// in order: the action given to ``whenWriteFails(_:)`` runs (the command closes its
/// device, so it ends the usual way and puts the terminal back), and ``check()`` then
/// throws `cannot write to FILE: …` (exit code 74).
final class LogFile: Sendable {
    /// The JSON view over the file.
    let view: JSONView
    private let path: String
    private let failure: Failure

    /// Opens `path` for appending, before any port opens.
    ///
    /// - Throws: ``CommandFailure`` (73) naming the file when it cannot be opened.
    init(path: String) throws(CommandFailure) {
        let failure = Failure()
        do {
            view = JSONView(output: try FileSink.appending(toFile: path, onFailure: failure.record))
        } catch {
            throw CommandFailure("cannot open the log file \(error)", code: .cannotCreateLog)
        }
        self.path = path
        self.failure = failure
    }

    /// Why a command stops its devices when a write to the log fails, as the requests
    /// cut short show it (`log write failed before the reply came`).
    static let stopReason = "log write failed"

    /// Runs `action` once when a write fails (at once if one already has), inside the
    /// failed write: it must not wait (``Device/stop(reason:)``, not `close`).
    func whenWriteFails(_ action: @escaping @Sendable () -> Void) {
        failure.onFailure(action)
    }

    /// - Throws: ``CommandFailure`` (74) when a write to the file failed.
    func check() throws(CommandFailure) {
        if let reason = failure.reason { throw CommandFailure("cannot write to \(path): \(reason)", code: .ioError) }
    }

    /// The first failed write's reason and the action to run for it.
    private final class Failure: Sendable {
        private struct State {
            var reason: String?
            var action: (@Sendable () -> Void)?
        }
        private let state = Mutex(State())

        var reason: String? { state.withLock { $0.reason } }

        @Sendable func record(_ reason: String) {
            let action = state.withLock { state in
                state.reason = reason
                return state.action
            }
            action?()
        }

        func onFailure(_ action: @escaping @Sendable () -> Void) {
            let hasFailed = state.withLock { state in
                state.action = action
                return state.reason != nil
            }
            if hasFailed { action() }
        }
    }
}
