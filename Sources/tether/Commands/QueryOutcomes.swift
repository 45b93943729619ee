import Synchronization
import TetherConnection

/// The tally of `tether query`'s outcomes: the view's observer records each command's
/// exit code as its `exchanged` record is rendered, and the command's task waits once
/// for all of them (``all()``) — not once per reply, so a reply costs no hand-over to
/// another task (docs/PERFORMANCE.md, "Scripted queries and capture: the presenting
/// side").
final class QueryOutcomes: Sendable {
    private struct Tally {
        /// The worst exit code so far.
        var code = ExitCode.success
        /// Outcomes still to come.
        var remaining: Int
        /// The task waiting in ``all()``, once it waits.
        var waiter: CheckedContinuation<ExitCode, Never>?
        /// Whether every outcome came or the view ended: ``all()`` returns at once.
        var isOver = false
    }

    private let tally: Mutex<Tally>

    /// A tally of `count` commands' outcomes.
    init(expecting count: Int) {
        tally = Mutex(Tally(remaining: count, isOver: count == 0))
    }

    /// One command ended with `code`; the last one ends the wait.
    func record(_ code: ExitCode) {
        end { tally in
            guard !tally.isOver else { return false }
            tally.code = max(tally.code, code)
            tally.remaining -= 1
            return tally.remaining == 0
        }
    }

    /// The view stopped rendering (the device ended): a command without an outcome
    /// yet is a disconnect (74), not success.
    func viewEnded() {
        end { tally in
            guard !tally.isOver else { return false }
            tally.code = max(tally.code, .ioError)
            return true
        }
    }

    /// Waits until every command has its outcome or the view ended; returns the worst
    /// exit code of them.
    func all() async -> ExitCode {
        await withCheckedContinuation { waiter in
            let code = tally.withLock { tally -> ExitCode? in
                guard !tally.isOver else { return tally.code }
                tally.waiter = waiter
                return nil
            }
            if let code { waiter.resume(returning: code) }
        }
    }

    /// Applies `change`; when it says the wait is over, resumes the waiter (outside the lock).
    private func end(_ change: (inout Tally) -> Bool) {
        let resumed = tally.withLock { tally -> (CheckedContinuation<ExitCode, Never>, ExitCode)? in
            guard change(&tally) else { return nil }
            tally.isOver = true
            defer { tally.waiter = nil }
            return tally.waiter.map { ($0, tally.code) }
        }
        if let (waiter, code) = resumed { waiter.resume(returning: code) }
    }
}
