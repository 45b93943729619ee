import Glibc

/// The terminal settings of standard input (or another terminal), saved so they can
/// be put back whatever way tether ends.
public struct TerminalState {
    private let descriptor: Int32
    private let saved: termios

    /// Saves the settings of `descriptor`; `nil` when it is not a terminal.
    public static func save(_ descriptor: Int32 = STDIN_FILENO) -> TerminalState? {
        var settings = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &settings) == 0 else { return nil }
        return TerminalState(descriptor: descriptor, saved: settings)
    }

    /// Puts the saved settings back.
    public func restore() {
        var settings = saved
        tcsetattr(descriptor, TCSANOW, &settings)
    }
}
