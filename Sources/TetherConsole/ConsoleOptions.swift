import TetherCommandLine

/// The options of `connect`'s console on a terminal (`--mode`, `--escape`, `--echo`,
/// `--map-cr`, `--enter`), declared once here as the simulator declares its fault
/// options, and the values they were given.
public struct ConsoleOptions: Sendable {
    public static let mode = Option<ConsoleMode?>(
        "--mode", value: "mode", help: "raw (keys as typed) or line (editing, history).",
        defaultHelp: "raw for --dialect prompt, else line, raw once a console's prompt shows",
        parse: Parse.choice(ConsoleMode.self))
    /// Ctrl-T, the escape key when `--escape` is not given (as tio's).
    public static let defaultEscape: UInt8 = 0x14
    public static let escape = Option<UInt8>(
        "--escape", value: "key", help: "The escape key for local commands: ctrl-A … ctrl-Z (or ^A).",
        default: defaultEscape, defaultHelp: "ctrl-t"
    ) { text throws(InvalidValue) in
        guard let key = EscapeKeyFilter.key(parsing: text) else {
            throw InvalidValue("Please provide a control key such as 'ctrl-t', 'ctrl-a' or '^]'.")
        }
        return key
    }
    public static let echo = Flag(
        "--echo", help: "Raw mode: show the keys you type (for a device that does not echo).")
    public static let mapCR = Flag(
        "--map-cr",
        help:
            "Raw mode: show a received CR as a line end (for devices that end lines\nwith CR only; a CR LF stays one).")
    public static let enter = Option<EnterKey>(
        "--enter", value: "eol", help: "Raw mode: what the Enter key sends: cr, lf or crlf.", default: .cr,
        defaultHelp: "cr, as typed", parse: Parse.choice(EnterKey.self))

    /// The escape key's local commands, for `connect --help` and the man page: the
    /// list the escape key's `?` shows, from the same declaration (``LocalCommand``).
    public static let keysHelp =
        "KEYS (after the escape key: Ctrl-T, or the one --escape gives):\n"
        + LocalCommand.listing(escape: defaultEscape).dropLast()

    /// Every one, in the order `--help` lists them.
    public static let declarations = [
        mode.declaration, escape.declaration, echo.declaration, mapCR.declaration, enter.declaration,
    ]

    /// The mode asked for; `nil`: chosen by the dialect.
    public var mode: ConsoleMode?
    /// The escape key's byte.
    public var escape: UInt8
    /// Whether raw mode shows the keys typed.
    public var echoes: Bool
    /// Whether raw mode shows a lone CR received as a line end.
    public var mapsCR: Bool
    /// What Enter sends in raw mode.
    public var enter: EnterKey
    /// The first option given that only a terminal can honour (`--mode raw`,
    /// `--escape`, `--echo`, `--map-cr`, `--enter`), as typed; `nil` when none was.
    public var terminalOnlyOption: String?

    /// Reads them from `arguments`.
    public init(_ arguments: ParsedArguments) {
        mode = arguments[Self.mode]
        escape = arguments[Self.escape]
        echoes = arguments[Self.echo]
        mapsCR = arguments[Self.mapCR]
        enter = arguments[Self.enter]
        let given = Self.declarations.dropFirst().first { arguments.isGiven($0) }
        terminalOnlyOption = mode == .raw ? "--mode raw" : given?.key
    }
}
