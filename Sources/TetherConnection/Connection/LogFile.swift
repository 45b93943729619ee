import Synchronization
import TetherViews

/// A file a command writes records to beside what the terminal shows — `--log FILE`
/// (JSON Lines, appended to, see ``FileSink/appending(toFile:onFailure:)``), `run`'s
/// `--junit FILE` (replaced) — its view, and what happens when it can no longer be
/// written.
///
/// A write that fails (a full disk) ends the session with an error, never silently, and
/// in order: the action given to ``whenWriteFails(_:)`` runs (the command closes its
/// device, so it ends the usual way and puts the terminal back), and ``check()`` then
/// throws `cannot write to FILE: …` (exit code 74).
package final class LogFile<View: Sendable>: Sendable {
    /// The view over the file.
    package let view: View
    /// The format the file is written in.
    package let format: OutputFormat
    private let path: String
    private let failure: Failure

    /// Opens `path` — for appending, or emptied first when `replaces` — before any port
    /// opens, with `format`'s view of `kind` over it, made with `settings` (their
    /// output the file).
    ///
    /// - Throws: ``CommandFailure`` (73) naming the file when it cannot be opened; (64)
    ///   when `format` cannot show `kind`.
    package init(
        path: String, format: OutputFormat = .json, showing kind: ViewKind<View>,
        settings: ViewSettings = ViewSettings(),
        replaces: Bool = false, named role: String = "log file"
    ) throws(CommandFailure) {
        let failure = Failure()
        let sink: FileSink
        do {
            sink =
                replaces
                ? try FileSink.replacing(file: path, onFailure: failure.record)
                : try FileSink.appending(toFile: path, onFailure: failure.record)
        } catch {
            throw CommandFailure("cannot open the \(role) \(error)", code: .cannotCreateLog)
        }
        do throws(UnsupportedFormat) {
            var settings = settings
            settings.output = sink
            view = try format.make(kind, settings)
        } catch {
            throw CommandFailure(usage: error.description)
        }
        self.format = format
        self.path = path
        self.failure = failure
    }

    /// Runs `action` once when a write fails (at once if one already has), inside the
    /// failed write: it must not wait (``Device/stop(reason:)``, not `close`).
    package func whenWriteFails(_ action: @escaping @Sendable () -> Void) {
        failure.onFailure(action)
    }

    /// - Throws: ``CommandFailure`` (74) when a write to the file failed.
    package func check() throws(CommandFailure) {
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

/// Why a command stops its devices when a write to a ``LogFile`` fails.
package enum LogFileStop {
    /// As the requests cut short show it (`log write failed before the reply came`).
    package static let reason = "log write failed"
}
