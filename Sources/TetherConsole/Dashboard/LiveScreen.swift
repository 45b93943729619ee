import Glibc
import TetherCommandLine
import TetherLibC
import TetherPresenter
import TetherViews

/// `--live`: the view state instead of the event log — the dashboard on a terminal
/// (``DashboardView``), `state` records with `--format json` (``JSONStateView``) — and,
/// while the dashboard is up, the signals a full-screen program must answer.
package final class LiveScreen {
    /// The live view.
    package let view: any DeviceView
    private let signals: DashboardSignals?

    /// Chooses the live view: the dashboard for text output, else the format's live
    /// view (``ViewKind/liveState``: `state` records with `--format json`).
    ///
    /// - Throws: ``UsageError`` for text output that is not a terminal, or a terminal
    ///   terminfo cannot redraw in place (`TERM=dumb`, unknown): the dashboard cannot be
    ///   drawn there, and the event log is not what was asked for; or for a format
    ///   with no live view.
    package init(format: OutputFormat, environment: [String: String] = Environment.variables)
        throws(UsageError)
    {
        if format != .text {
            do throws(UnsupportedFormat) {
                view = try format.make(.liveState)
            } catch {
                throw UsageError(error.description)
            }
            signals = nil
        } else {
            guard FileSink.standardOutput.isTerminal else {
                throw UsageError(
                    "'--live' draws a dashboard and standard output is not a terminal; "
                        + "give '--format json' for state records, or leave out '--live' for the event log")
            }
            guard let capabilities = TerminalCapabilities.load(term: environment["TERM"]) else {
                let term = environment["TERM"].map { "'\($0)'" } ?? "(TERM is not set)"
                throw UsageError(
                    "'--live' cannot redraw the terminal \(term) in place; set TERM to your terminal's type, "
                        + "or leave out '--live' for the event log")
            }
            let dashboard = DashboardView(
                output: FileSink.standardOutput, capabilities: capabilities, environment: environment,
                size: Self.terminalSize, fatalSignalDescriptor: STDOUT_FILENO)
            view = dashboard
            signals = DashboardSignals(dashboard)
        }
    }

    /// Stops answering the dashboard's signals (call once the view has finished).
    package func close() { signals?.cancel() }

    /// Standard output's size (`TIOCGWINSZ`), 80 × 24 when it cannot be read.
    @Sendable static func terminalSize() -> DashboardView.Size {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
