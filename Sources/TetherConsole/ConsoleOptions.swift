import TetherCommandLine
import TetherModel
import TetherViews

/// The options of `connect`'s console (`--mode`, `--escape`, `--echo`, `--map-cr`,
/// `--enter`, `--map`: on a terminal only; `--color`, `--init-string`), declared once
/// here as the simulator declares its fault options, and the values they were given.
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

    public static let map = Option<CharacterMap>(
        "--map", value: "flags",
        help:
            "Character mappings as tio's, separated by commas; I… flags act on what\nraw mode shows, O… flags on what is typed (docs/CONNECT.md, \"Maps\"):\n"
            + CharacterMap.help,
        default: CharacterMap(), defaultHelp: "none"
    ) { text throws(InvalidValue) in try CharacterMap(parsing: text) }
    public static let initString = Option<[UInt8]?>(
        "--init-string", value: "text",
        help:
            "A command sent once the port is open, before anything typed (picocom's\n--initstring), with the dialect's line end; its reply shows as a typed\nline's does. Takes the escapes of commands: \\r \\n \\t \\e \\xNN \\\\."
    ) { text throws(InvalidValue) in
        do {
            return try CommandText.bytes(fromEscaped: text)
        } catch {
            throw InvalidValue("\(error).")
        }
    }
    public static let color = Option<ColorChoice>(
        "--color", value: "when",
        help:
            "tether's own colours: never, auto (on a terminal, unless NO_COLOR is set)\nor always; a device's own colours in raw mode pass either way.",
        default: .auto, parse: Parse.choice(ColorChoice.self))

    public static let socket = Option<String?>(
        "--socket", value: "address",
        help:
            "Share the session with other programs, as tio's --socket: unix:PATH\nlistens there; each program connected gets the bytes received and what it\nwrites goes to the device (socat - UNIX-CONNECT:PATH)."
    ) { text throws(InvalidValue) in
        guard text.hasPrefix("unix:"), text.count > 5 else {
            throw InvalidValue("Please provide unix:PATH, the path of a Unix domain socket to make.")
        }
        return String(text.dropFirst(5))
    }
    public static let pty = Flag(
        "--pty",
        help:
            "Share the session on a new pseudo-terminal too, its path said at the start\n(for a program that opens a serial port)."
    )

    /// The escape key's local commands, for `connect --help` and the man page: the
    /// list the escape key's `?` shows, from the same declaration (``LocalCommand``).
    public static let keysHelp =
        "KEYS (after the escape key: Ctrl-T, or the one --escape gives):\n"
        + LocalCommand.listing(escape: defaultEscape).dropLast()

    /// The options only a terminal can honour (but `--mode raw`).
    static let terminalOnly = [
        escape.declaration, echo.declaration, mapCR.declaration, enter.declaration, map.declaration,
    ]

    /// Every one, in the order `--help` lists them.
    public static let declarations = everyday + tuning

    /// The ones `connect --help` shows: the mode and the escape key.
    public static let everyday = [mode.declaration, escape.declaration]

    /// The rest, which `connect --help-all` shows: raw mode's tuning, the init string
    /// and sharing.
    public static let tuning =
        Array(terminalOnly.dropFirst()) + [
            color.declaration, initString.declaration, socket.declaration, pty.declaration,
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
    /// `--map`'s flags.
    public var map: CharacterMap
    /// What `--init-string` decodes to; `nil` when not given.
    public var initString: [UInt8]?
    /// When tether's own text is coloured.
    public var color: ColorChoice
    /// `--socket unix:PATH`'s path; `nil` when not given.
    public var socket: String?
    /// Whether `--pty` was given.
    public var pty: Bool
    /// The first option given that only a terminal can honour (`--mode raw`,
    /// ``terminalOnly``), as typed; `nil` when none was.
    public var terminalOnlyOption: String?

    /// Reads them from `arguments`.
    public init(_ arguments: ParsedArguments) {
        mode = arguments[Self.mode]
        escape = arguments[Self.escape]
        echoes = arguments[Self.echo]
        mapsCR = arguments[Self.mapCR]
        enter = arguments[Self.enter]
        map = arguments[Self.map]
        initString = arguments[Self.initString]
        color = arguments[Self.color]
        socket = arguments[Self.socket]
        pty = arguments[Self.pty]
        let given = Self.terminalOnly.first { arguments.isGiven($0) }
        terminalOnlyOption = mode == .raw ? "--mode raw" : given?.key
    }
}
