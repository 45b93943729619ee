import Dispatch
import Glibc
import TetherViews

/// The signals a full-screen view answers besides the ones that end tether (the
/// command line's `SignalTrap`: SIGINT, SIGTERM, SIGHUP, SIGQUIT, which end the
/// session and so restore the screen):
///
/// - SIGWINCH: the terminal was resized; redraw at the new size at once.
/// - SIGTSTP (Ctrl-Z): put the screen back, then stop (SIGSTOP, which cannot be
///   caught); SIGCONT (`fg`): draw again.
///
/// Signals are handled by dispatch sources, never by work inside a C signal handler.
final class DashboardSignals {
    private static let handled: [Int32] = [SIGWINCH, SIGTSTP, SIGCONT]
    private let sources: [any DispatchSourceSignal]

    /// Starts answering for `dashboard`.
    init(_ dashboard: DashboardView) {
        sources = Self.handled.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                switch number {
                case SIGWINCH: dashboard.redraw()
                case SIGCONT: dashboard.resume()
                default: dashboard.suspend { kill(getpid(), SIGSTOP) }
                }
            }
            source.resume()
            return source
        }
    }

    /// Stops answering and restores the default actions.
    func cancel() {
        for source in sources { source.cancel() }
        for number in Self.handled { signal(number, SIG_DFL) }
    }
}
