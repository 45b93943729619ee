import Glibc

/// The terminal settings of standard input, saved so they can be put back whatever
/// way tether ends.
struct TerminalState {
    private let saved: termios

    /// Saves the settings; `nil` when standard input is not a terminal.
    static func save() -> TerminalState? {
        var settings = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 else { return nil }
        return TerminalState(saved: settings)
    }

    /// Puts the saved settings back.
    func restore() {
        var settings = saved
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }
}
