import TetherCommandLine
import TetherConsole

/// `connect`'s options beyond the mode and the escape key (``ConsoleOptions/tuning``):
/// raw mode's echo, maps and Enter, colours, the init string and sharing the session.
/// Shown by `connect --help-all`.
enum ConsoleTuningOptions: OptionGroup {
    static let title = "CONSOLE OPTIONS"
    static let isCommon = false
    static var options: [OptionDeclaration] { ConsoleOptions.tuning }
}
