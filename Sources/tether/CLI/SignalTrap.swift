import CAbortOrigin
import CSignalRecord
import Glibc
import Synchronization

/// Turns SIGINT, SIGTERM, SIGHUP, SIGQUIT and a SIGABRT sent from outside (`kill -ABRT`,
/// which arrives as ``abortStandIn``; tether's own `abort()` stays a crash report) into
/// an `AsyncStream` of signal numbers, so a command can stop cleanly (restore the
/// terminal, finish its output) instead of dying in the middle of a line. The signal's
/// C action only records it and writes its number to a pipe (`signal_record.h`);
/// tether's main thread reads the pipe and hands each number to every trap
/// (``relaySignals(startingWith:)``), never doing the work inside the handler.
///
/// Every command keeps the POSIX rule for a signal ignored when tether started (a
/// background job started by a non-interactive shell, `nohup`, `trap '' INT`): it stays
/// ignored, trapped or not: only the signals whose action was the default are trapped.
/// A command that traps nothing ends on a signal by its default action; a program
/// tether starts begins with the default actions and no signal blocked (an action
/// that is a handler does not survive `exec`, and no thread blocks a trapped signal).
final class SignalTrap {
    /// The signals trapped, when not ignored at start.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, abortStandIn]

    /// The signal a SIGABRT from another process arrives as (`abort_origin.h`).
    static let abortStandIn = tether_abort_origin_stand_in()

    /// Those of ``signals`` that were not ignored when tether started (read once, before
    /// any trap changes them).
    static let trappable: [Int32] = signals.filter { !isIgnored($0) }

    /// The traps not yet cancelled: the main thread yields each signal read from the
    /// relay pipe to all of them. An array, not a dictionary: a `Hashable` key would
    /// cost a start-up a protocol conformance looked up at run time
    /// (docs/PERFORMANCE.md, "The one-shot query since").
    private static let listeners = Mutex<[(trap: ObjectIdentifier, continuation: AsyncStream<Int32>.Continuation)]>([])

    /// Trapped signal numbers, in arrival order, until ``cancel()``.
    let received: AsyncStream<Int32>
    private let continuation: AsyncStream<Int32>.Continuation

    /// Starts trapping; the default actions are suspended from now on (the actions are
    /// in place when this returns: a signal that comes after is in ``received``).
    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        received = stream
        self.continuation = continuation
        let trap = ObjectIdentifier(self)
        Self.listeners.withLock { $0.append((trap, continuation)) }
        for number in Self.trappable { tether_signal_record_install(number) }
        if Self.trappable.contains(Self.abortStandIn) { tether_abort_origin_forward() }
    }

    /// Ends ``received``. The signals stay trapped until the trap is released: the
    /// command is ending, and a second signal (or the SIGHUP that follows a terminal's
    /// hang-up, which tether may notice first as the end of its input) must not kill it
    /// before it has put the terminal back and written its last lines; one that comes
    /// now is still ``firstSignal``.
    func cancel() {
        let trap = ObjectIdentifier(self)
        Self.listeners.withLock { $0.removeAll { $0.trap == trap } }
        continuation.finish()
    }

    /// The first signal trapped, also after ``cancel()``: a command that was ending for
    /// another reason (its input ended) when it came ends with the signal's code, as
    /// the user stopped it. The signal's action records it in the thread the kernel
    /// picked, before its number reaches any trap (`signal_record.h`), so one that came
    /// is here even while the main thread has not yet read it.
    var firstSignal: Int32? {
        let recorded = tether_signal_record_first()
        return recorded != 0 ? recorded : nil
    }

    /// The exit code to end with: `code`, or the first signal's when one came and `code`
    /// says the command went through (``ExitCode/success``).
    func exitCode(after code: ExitCode) -> ExitCode {
        guard code == .success, let signal = firstSignal else { return code }
        return Self.exitCode(for: signal)
    }

    deinit {
        cancel()
    }

    /// Opens the relay pipe, runs `start` (which starts the command on other threads),
    /// then serves the trapped signals on this thread for as long as tether runs: each
    /// signal number the actions write is yielded to every trap not cancelled. Call
    /// once, from the main thread, before any trap. Without the pipe (no descriptor
    /// left), traps install nothing and every signal keeps its default action.
    static func relaySignals(startingWith start: () -> Void) -> Never {
        let relay = tether_signal_record_open()
        start()
        var number: UInt8 = 0
        while relay >= 0 {
            let count = read(relay, &number, 1)
            if count == 1 {
                let signal = Int32(number)
                listeners.withLock { for listener in $0 { listener.continuation.yield(signal) } }
            } else if count < 0 && errno != EINTR {
                break
            }
        }
        var none = sigset_t()
        sigemptyset(&none)
        while true { sigsuspend(&none) }
    }

    /// Sets the actions every command starts with: SIGQUIT's default one back (see
    /// ``restoreQuitAction()``), and SIGABRT's split by origin (`abort_origin.h`: one
    /// sent from outside ends tether, as SIGABRT's default action or through the trap).
    static func prepare() {
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
    static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// The exit code for ending on `signal` (128 + its number).
    static func exitCode(for signal: Int32) -> ExitCode {
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
    static func reason(for code: ExitCode) -> String? {
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
