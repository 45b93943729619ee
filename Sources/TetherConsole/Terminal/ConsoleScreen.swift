import TetherViews

/// The terminal as the console's mediator (``Console``) and view (``ConsoleView``) use
/// it: ``ConsoleTerminal`` on the user's terminal, a stand-in that records in tests.
///
/// ``OutputSink/write(_:)`` shows whole lines (a record, a message; `\n` ends a line),
/// begun on a fresh line.
public protocol ConsoleScreen: OutputSink, AnyObject {
    /// What the user typed, in order; ends when the terminal is done.
    var inputs: AsyncStream<ConsoleInput> { get }
    /// The mode in force. The terminal switches it itself on the escape key's `m`,
    /// before it reports the command.
    var mode: ConsoleMode { get set }
    /// Whether typed keys are also shown (raw mode; the device may echo them itself).
    var echoesLocally: Bool { get set }
    /// Starts reading the keyboard.
    func start()
    /// Shows `bytes` as they are, where the last output ended (received bytes in raw
    /// mode, already made safe by the caller).
    func writeBytes(_ bytes: [UInt8])
    /// Line mode: shows `text` (received after the last line end, e.g. a prompt) above
    /// the input line once the device has been quiet a while; `nil` when a line end
    /// came (the record of the whole line shows it).
    ///
    /// - Parameter switchesToRaw: once quiet, switch to raw mode instead of showing
    ///   `text`, and report ``ConsoleInput/promptSeen`` (a console's prompt, when the
    ///   mode was chosen for the user: ``ConsoleView/Settings/switchesAtPrompt``).
    func holdTail(_ text: String?, switchesToRaw: Bool)
    /// Writes `bytes` when the terminal stops, however it stops (the escape key's `q`,
    /// a signal that ends tether, an error), after what was shown: the undo of what the
    /// device changed through raw mode (``DeviceTerminalModes/undo``). Each call
    /// replaces the bytes given before.
    func undoOnExit(_ bytes: [UInt8])
    /// During a file transfer (after ``ConsoleInput/sendByProtocol(path:protocol:)`` or
    /// ``ConsoleInput/receiveByProtocol(_:)``, until ``endTransfer()``): Ctrl-C, Escape
    /// or the escape key typed call `cancel` (once, at once if one was typed already);
    /// other keys are dropped.
    func onTransferCancel(_ cancel: @escaping @Sendable () -> Void)
    /// Shows `line` in place on the status line of the transfer (its progress), in
    /// place of the last one.
    func showTransfer(_ line: String)
    /// Ends the transfer's status line: the terminal goes on as before, and shows
    /// what was written meanwhile.
    func endTransfer()
}
