import CScreenRestore
import FoundationEssentials
import Synchronization
import TetherPresenter

/// The live view for people (`tether monitor --live`): one screen, redrawn in place,
/// showing the whole ``ViewState`` (``Dashboard``) — at most ten times a second, on
/// change, and once a second so ages keep counting.
///
/// It draws on the terminal's alternate screen with the cursor hidden, using the
/// escape sequences terminfo gives for the terminal (``TerminalCapabilities``), and
/// puts the screen back as it was in ``finish(_:)`` and ``suspend(then:)``. Colour is used
/// unless `NO_COLOR` is set (no-color.org) or the terminal has none. Records are not
/// printed: the screen shows their effect on the state.
package final class DashboardView: DeviceView {
    /// A terminal's size in character cells.
    package typealias Size = (columns: Int, rows: Int)

    private let screen: Screen
    private let refresh: LiveRefresh
    private let diagnostics: any OutputSink

    /// Creates a dashboard drawing on `output`.
    ///
    /// - Parameters:
    ///   - output: the terminal (standard output).
    ///   - diagnostics: where the reason goes when the session ends with the device gone
    ///     for good (standard error), once the screen is back.
    ///   - capabilities: the terminal's escape sequences.
    ///   - environment: read for `NO_COLOR`.
    ///   - size: the terminal's current size, read at every draw (so a resize shows at
    ///     the next one; call ``redraw()`` on SIGWINCH to show it at once).
    ///   - clock: the time used for ages, downtime and the clock in the title.
    ///   - fatalSignalDescriptor: the file descriptor behind `output` (standard
    ///     output); while the dashboard is on screen, a signal that would end tether
    ///     without a clean exit (a crash, SIGUSR1…) first writes the screen's restore
    ///     sequence there. `nil` (tests) arms nothing.
    package init(
        output: any OutputSink, diagnostics: any OutputSink = FileSink.standardError,
        capabilities: TerminalCapabilities, environment: [String: String],
        size: @escaping @Sendable () -> Size, clock: @escaping @Sendable () -> Date = { Date() },
        fatalSignalDescriptor: Int32? = nil
    ) {
        let screen = Screen(
            output: output, capabilities: capabilities, usesColour: environment["NO_COLOR"].map(\.isEmpty) ?? true,
            size: size, clock: clock, fatalSignalDescriptor: fatalSignalDescriptor)
        self.screen = screen
        self.diagnostics = diagnostics
        refresh = LiveRefresh(idleTicks: 10) { state in screen.draw(state) }
    }

    package func render(_ record: ViewRecord, state: ViewState) {}

    package func stateDidChange(_ state: ViewState) { refresh.submit(state) }

    /// Draws the last state once more, at once (after the terminal was resized).
    package func redraw() { refresh.redrawNow() }

    /// Puts the screen back as it was, e.g. before the process stops on SIGTSTP; the
    /// next draw (``resume()``) enters the dashboard's screen again.
    package func suspend(then stopped: @escaping @Sendable () -> Void) {
        refresh.perform { [screen] in
            screen.leave(suspending: true)
            stopped()
        }
    }

    /// Draws again after ``suspend(then:)`` (on SIGCONT).
    package func resume() {
        refresh.perform { [screen, refresh] in
            screen.resume()
            refresh.redrawNow()
        }
    }

    /// Draws the final state, then puts the screen back as it was; when the device went
    /// away for good, says so on `diagnostics` (the screen that showed it is gone).
    package func finish(_ state: ViewState) {
        refresh.finish(state) { [screen] in screen.leave() }
        if case .disconnected(let reason, _) = state.connection {
            diagnostics.write("disconnected: \(state.port): \(reason)\n")
        }
    }
}

/// The terminal the dashboard draws on: whether it is on the alternate screen, and
/// how a frame is written.
private final class Screen: Sendable {
    let output: any OutputSink
    let capabilities: TerminalCapabilities
    let usesColour: Bool
    let size: @Sendable () -> DashboardView.Size
    let clock: @Sendable () -> Date
    let fatalSignalDescriptor: Int32?
    private let phase = Mutex(Phase.idle)

    /// Where the screen is.
    private enum Phase {
        /// Not drawn yet, or put back for good.
        case idle
        /// On the alternate screen.
        case drawing
        /// Put back while tether is stopped (Ctrl-Z); nothing is drawn until resumed.
        case suspended
    }

    init(
        output: any OutputSink, capabilities: TerminalCapabilities, usesColour: Bool,
        size: @escaping @Sendable () -> DashboardView.Size, clock: @escaping @Sendable () -> Date,
        fatalSignalDescriptor: Int32?
    ) {
        self.output = output
        self.capabilities = capabilities
        self.usesColour = usesColour
        self.size = size
        self.clock = clock
        self.fatalSignalDescriptor = fatalSignalDescriptor
    }

    /// What puts the terminal back: attributes off, cursor shown, normal screen.
    private var restoreSequence: String { capabilities.reset + capabilities.showCursor + capabilities.leaveScreen }

    /// Draws one frame: cursor home, every line followed by clear-to-end-of-line, then
    /// clear-to-end-of-screen; one write, so the terminal never shows half a frame.
    func draw(_ state: ViewState) {
        let (columns, rows) = size()
        let entering: String? = phase.withLock { phase in
            switch phase {
            case .suspended: return nil
            case .drawing: return ""
            case .idle:
                phase = .drawing
                if let fatalSignalDescriptor {
                    let bytes = Array(restoreSequence.utf8)
                    _ = bytes.withUnsafeBufferPointer { buffer in
                        buffer.withMemoryRebound(to: CChar.self) {
                            tether_screen_restore_arm(fatalSignalDescriptor, $0.baseAddress, $0.count)
                        }
                    }
                }
                return capabilities.enterScreen + capabilities.hideCursor
            }
        }
        guard var frame = entering else { return }
        frame += capabilities.home
        // One column spare: writing the last column may wrap on some terminals.
        let lines = Dashboard(state: state, now: clock()).lines(width: max(columns - 1, 1), height: max(rows, 1))
        frame += lines.map { paint($0) + capabilities.clearToEndOfLine }.joined(separator: "\r\n")
        frame += capabilities.clearToEndOfScreen
        output.write(frame)
    }

    /// Puts the screen back as it was before the first draw; `suspending` holds further
    /// draws until ``resume()``.
    func leave(suspending: Bool = false) {
        let wasDrawing = phase.withLock { phase in
            defer { phase = suspending ? .suspended : .idle }
            return phase == .drawing
        }
        guard wasDrawing else { return }
        output.write(restoreSequence)
        if fatalSignalDescriptor != nil { tether_screen_restore_disarm() }
    }

    /// Lets draws happen again after a suspension.
    func resume() {
        phase.withLock { if $0 == .suspended { $0 = .idle } }
    }

    private func paint(_ line: ScreenLine) -> String {
        line.spans.map { span in
            let start: String
            switch span.style {
            case .plain: return span.text
            case .heading: start = capabilities.bold
            case .dim: start = usesColour ? capabilities.dim : ""
            case .good: start = colour(2)
            case .caution: start = colour(3)
            case .bad: start = colour(1)
            case .accent: start = colour(6)
            }
            return start.isEmpty ? span.text : start + span.text + capabilities.reset
        }.joined()
    }

    private func colour(_ index: Int) -> String {
        usesColour && index < capabilities.foreground.count ? capabilities.foreground[index] : ""
    }
}
