import CAbortOrigin
import CSignalRecord
import Dispatch
import Glibc
import Synchronization

/// Turns SIGINT, SIGTERM, SIGHUP, SIGQUIT and a SIGABRT sent from outside (`kill -ABRT`,
/// which arrives as ``abortStandIn``; tether's own `abort()` stays a crash report) into
/// an `AsyncStream` of signal numbers, so a command can stop cleanly (restore the
/// terminal, finish its output) instead of dying in the middle of a line. Signals are handled by dispatch sources, never by
/// work inside a C signal handler.
///
/// Every command keeps the POSIX rule for a signal ignored when tether started (a
/// background job started by a non-interactive shell, `nohup`, `trap '' INT`): it stays
/// ignored, trapped or not: only the signals whose action was the default are trapped.
package final class SignalTrap {
    /// The signals trapped, when not ignored at start.
    package static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, abortStandIn]

    /// The signal a SIGABRT from another process arrives as (`abort_origin.h`).
    package static let abortStandIn = tether_abort_origin_stand_in()

    /// Those of ``signals`` that were not ignored when tether started (read once, before
    /// any trap changes them).
    package static let trappable: [Int32] = signals.filter { !isIgnored($0) }

    /// Trapped signal numbers, in arrival order, until ``cancel()``.
    package let received: AsyncStream<Int32>
    private let continuation: AsyncStream<Int32>.Continuation
    private let sources: [any DispatchSourceSignal]
    /// Where the sources' handlers run, in order.
    private let queue = DispatchQueue(label: "tether.signal-trap")
    /// The first signal trapped (a box, shared with the sources' handlers).
    private final class First: Sendable {
        let signal = Mutex<Int32?>(nil)
    }
    private let first = First()

    /// Starts trapping; the default actions are suspended from now on. Returns once
    /// every source is registered (up to 5 s on a machine too loaded to say): a source
    /// is registered asynchronously, and a signal that comes before is lost, so a
    /// command shows nothing a user could answer with Ctrl-C before the trap is armed.
    package init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        received = stream
        self.continuation = continuation
        let registered = DispatchGroup()
        let first = self.first
        let queue = self.queue
        sources = Self.trappable.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                first.signal.withLock { if $0 == nil { $0 = number } }
                continuation.yield(number)
            }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            return source
        }
        _ = registered.wait(timeout: .now() + .seconds(5))
        for number in Self.trappable { tether_signal_record_install(number) }
        if Self.trappable.contains(Self.abortStandIn) { tether_abort_origin_forward() }
    }

    /// Ends ``received``. The signals stay trapped until the trap is released: the
    /// command is ending, and a second signal (or the SIGHUP that follows a terminal's
    /// hang-up, which tether may notice first as the end of its input) must not kill it
    /// before it has put the terminal back and written its last lines; one that comes
    /// now is still ``firstSignal``.
    package func cancel() {
        continuation.finish()
    }

    /// The first signal trapped, also after ``cancel()``: a command that was ending for
    /// another reason (its input ended) when it came ends with the signal's code, as
    /// the user stopped it.
    ///
    /// A signal reaches a source's handler by one of two ways, each of which can still
    /// be under way when a command ends: through libdispatch's action in the thread the
    /// kernel picked (recorded there at once, `signal_record.h`), or straight to
    /// libdispatch's `signalfd` while every thread blocks it (pending until read, then
    /// queued for the handler, which this waits for).
    package var firstSignal: Int32? {
        let recorded = tether_signal_record_first()
        if recorded != 0 { return recorded }
        var pending = sigset_t()
        if sigpending(&pending) == 0, let number = Self.trappable.first(where: { sigismember(&pending, $0) == 1 }) {
            return number
        }
        queue.sync {}
        return first.signal.withLock { $0 }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// Runs `work` with a trap armed, the one way every command traps signals: each
    /// signal trapped meanwhile goes to `onSignal` in order (close the device, cancel a
    /// transfer, pass it on to a program, exit), and the trap is released once `work`
    /// has returned, so a second signal cannot kill the command while it finishes.
    ///
    /// - Returns: what `work` returned, and the first signal trapped (``firstSignal``).
    package static func during<Result>(
        onSignal: @escaping @Sendable (Int32) -> Void, _ work: () async throws -> Result
    ) async rethrows -> (result: Result, signal: Int32?) {
        let trap = SignalTrap()
        let signals = trap.received
        let handling = Task {
            for await signal in signals { onSignal(signal) }
        }
        defer {
            handling.cancel()
            trap.cancel()
        }
        let result = try await work()
        trap.cancel()
        return (result, trap.firstSignal)
    }

    /// `code`, or the code of `signal` when one came and `code` says the command went
    /// through (``ExitCode/success``): the user stopped it.
    package static func exitCode(_ code: ExitCode, after signal: Int32?) -> ExitCode {
        guard code == .success, let signal else { return code }
        return exitCode(for: signal)
    }

    /// Sets the actions every command starts with: SIGQUIT's default one back (see
    /// ``restoreQuitAction()``), and SIGABRT's split by origin (`abort_origin.h`: one
    /// sent from outside ends tether, as SIGABRT's default action or through the trap).
    package static func prepare() {
        restoreQuitAction()
        tether_abort_origin_install()
    }

    /// Gives SIGQUIT its default action back where the Swift runtime's crash reporter
    /// took it (the reporter would print a crash report for Ctrl-\\ and let tether go
    /// on): a command that does not trap it (`run`) then ends on it as on SIGINT, with
    /// 128 + 3. An action that is "ignore" stays.
    private static func restoreQuitAction() {
        var current = sigaction()
        guard sigaction(SIGQUIT, nil, &current) == 0 else { return }
        let handler = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
        guard handler != unsafeBitCast(SIG_IGN, to: Int.self) else { return }
        signal(SIGQUIT, SIG_DFL)
    }

    /// Whether `number`'s action is "ignore" (`sigaction` with no new action).
    package static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// The exit code for ending on `signal` (128 + its number).
    package static func exitCode(for signal: Int32) -> ExitCode {
        switch signal {
        case SIGINT: .interrupted
        case SIGTERM: .terminated
        case SIGQUIT: .quitSignal
        case abortStandIn: .abortSignal
        default: .hangUpSignal
        }
    }

    /// Why a session ended by a signal stopped, as a request cut short shows it
    /// (`interrupted before the reply came`); `nil` for a code no signal gives.
    package static func reason(for code: ExitCode) -> String? {
        switch code {
        case .interrupted: "interrupted"
        case .terminated: "terminated"
        case .hangUpSignal: "the terminal hung up"
        case .quitSignal: "quit"
        case .abortSignal: "aborted"
        default: nil
        }
    }
}
