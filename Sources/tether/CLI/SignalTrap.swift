import Dispatch
import Glibc

/// Turns SIGINT, SIGTERM and SIGHUP into an `AsyncStream` of signal numbers, so a
/// command can stop cleanly (restore the terminal, finish its output) instead of
/// dying in the middle of a line. Signals are handled by dispatch sources, never by
/// work inside a C signal handler.
///
/// Every command keeps the POSIX rule for a signal ignored when tether started (a
/// background job started by a non-interactive shell, `nohup`, `trap '' INT`): it stays
/// ignored, trapped or not: only the signals whose action was the default are trapped.
final class SignalTrap {
    /// The signals trapped, when not ignored at start.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Those of ``signals`` that were not ignored when tether started (read once, before
    /// any trap changes them).
    static let trappable: [Int32] = signals.filter { !isIgnored($0) }

    /// Trapped signal numbers, in arrival order.
    let received: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    /// Starts trapping; the default actions are suspended from now on.
    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        received = stream
        sources = Self.trappable.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// Stops trapping. The signals stay ignored: the command is ending, and a second
    /// signal (or the SIGHUP that follows a terminal's hang-up, which tether may notice
    /// first as the end of its input) must not kill it before it has put the terminal
    /// back and written its last lines.
    func cancel() {
        for source in sources { source.cancel() }
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
        default: .hangUpSignal
        }
    }
}
