import CTermInfo
import Synchronization

/// The escape sequences the live dashboard needs, read from the terminfo entry of the
/// user's terminal (`$TERM`, terminfo(5)) — so the screen is driven the way that
/// terminal wants, whatever it is.
package struct TerminalCapabilities: Sendable, Equatable {
    /// `smcup`: switch to the alternate screen (empty when the terminal has none).
    package var enterScreen: String
    /// `rmcup`: back to the normal screen, as it was before.
    package var leaveScreen: String
    /// `civis`: hide the cursor (may be empty).
    package var hideCursor: String
    /// `cnorm`: show the cursor again (may be empty).
    package var showCursor: String
    /// `home`: cursor to the top left.
    package var home: String
    /// `el`: clear from the cursor to the end of the line.
    package var clearToEndOfLine: String
    /// `ed`: clear from the cursor to the end of the screen.
    package var clearToEndOfScreen: String
    /// `sgr0`: all attributes off.
    package var reset: String
    /// `bold` (may be empty).
    package var bold: String
    /// `dim` (may be empty).
    package var dim: String
    /// `setaf` for colours 0 to 7 (black, red, green, yellow, blue, magenta, cyan,
    /// white); empty when the terminal has fewer than 8 colours.
    package var foreground: [String]

    /// Creates capabilities from their strings.
    package init(
        enterScreen: String, leaveScreen: String, hideCursor: String, showCursor: String, home: String,
        clearToEndOfLine: String, clearToEndOfScreen: String, reset: String, bold: String, dim: String,
        foreground: [String]
    ) {
        self.enterScreen = enterScreen
        self.leaveScreen = leaveScreen
        self.hideCursor = hideCursor
        self.showCursor = showCursor
        self.home = home
        self.clearToEndOfLine = clearToEndOfLine
        self.clearToEndOfScreen = clearToEndOfScreen
        self.reset = reset
        self.bold = bold
        self.dim = dim
        self.foreground = foreground
    }

    /// The capabilities of terminal type `term` from the terminfo database, or `nil`
    /// when `term` is unknown or cannot redraw a screen in place (no `home`, `el` or
    /// `ed`: `dumb`, a printing terminal).
    package static func load(term: String?) -> TerminalCapabilities? {
        guard let term, !term.isEmpty else { return nil }
        return loading.withLock { _ in
            guard tether_terminfo_load(term) == 1 else { return nil }
            defer { tether_terminfo_release() }
            func string(_ name: String) -> String? { tether_terminfo_string(name).map { String(cString: $0) } }
            guard let home = string("home"), let clearLine = string("el"), let clearScreen = string("ed") else {
                return nil
            }
            let setForeground = string("setaf")
            let foreground: [String] =
                if let setForeground, tether_terminfo_number("colors") >= 8 {
                    (0..<8).map { String(cString: tether_terminfo_format1(setForeground, $0)) }
                } else {
                    []
                }
            return TerminalCapabilities(
                enterScreen: string("smcup") ?? "", leaveScreen: string("rmcup") ?? "",
                hideCursor: string("civis") ?? "", showCursor: string("cnorm") ?? "", home: home,
                clearToEndOfLine: clearLine, clearToEndOfScreen: clearScreen, reset: string("sgr0") ?? "",
                bold: string("bold") ?? "", dim: string("dim") ?? "", foreground: foreground)
        }
    }

    /// terminfo's current terminal is global state: one load at a time.
    private static let loading = Mutex(())
}
