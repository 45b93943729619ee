import Glibc
import Testing
import TetherCommandLine
import TetherViews

@testable import TetherConsole

/// `monitor --live` chooses its view: `state` records for JSON, the dashboard only on a
/// terminal that can redraw in place.
@Suite struct LiveScreenTests {
    @Test func jsonGivesStateRecordsAnywhere() throws {
        let screen = try LiveScreen(format: .json, environment: [:])
        defer { screen.close() }
        #expect(screen.view is JSONStateView)
    }

    @Test(.enabled(if: isatty(STDOUT_FILENO) == 0, "standard output is a pipe or a file"))
    func theDashboardNeedsATerminal() {
        #expect(
            throws: UsageError(
                "'--live' draws a dashboard and standard output is not a terminal; "
                    + "give '--format json' for state records, or leave out '--live' for the event log")
        ) { try LiveScreen(format: .text, environment: ["TERM": "xterm"]) }
    }
}
