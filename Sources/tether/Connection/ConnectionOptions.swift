import TetherCommandLine
import TetherDeviceSettings
import TetherLibC
import TetherModel
import TetherSerial
import TetherSimulator
import TetherViews

/// The options every device command shares: which port (or `--sim`), serial
/// settings, dialect, timeout and output format.
struct ConnectionOptions {
    static let sim = Flag("--sim", help: "Start the built-in device simulator in-process and use it instead of <port>.")
    static let profile = Option<String?>(
        "--profile", value: "name|file",
        help: """
            With --sim: the simulated device, a built-in profile
            (\(SimulatorProfile.names.joined(separator: ", ")))
            or a profile file (docs/PROFILES.md); it also sets the
            default --dialect.
            """, defaultHelp: SimulatorProfile.defaultName, choices: SimulatorProfile.names,
        parse: Parse.nonEmpty(InvalidValue("Please provide a built-in profile's name or a profile file's path.")))
    static let device = Option<String?>(
        "--device", value: "file",
        help: """
            A device description file (docs/DIALECTS.md): dialect, line end,
            patterns and serial settings; options given here override it.
            """, parse: Parse.nonEmpty(InvalidValue("Please provide a device description file's path.")))
    static let timeout = Option<Int>(
        "--timeout", "-t", value: "ms",
        help: "Wait at most this many ms for each reply; 0 waits without a deadline\n(a hang-up still ends the wait).",
        default: 1000, range: longestWait)
    /// The longest `--timeout`: a day. Longer is a mistake (99999999999 is three years);
    /// 0 waits without a deadline.
    static let longestWait = ValueRange.integers(0...86_400_000, "ms")
    /// `--format`, read as any format: each command declares it with
    /// ``format(showing:)``, whose check refuses the formats it cannot show.
    static let format = format(showing: .eventLog, refusing: false)
    static let timestamps = Flag("--timestamps", help: "Prefix text output with the time of each event.")
    static let timestampFormat = Option<TimestampStyle?>(
        "--timestamp-format", value: "format",
        help: """
            How --timestamps and transcripts write times (tio's formats; implies
            --timestamps for text output):
              24hour        local time, 15:04:05.123
              24hour-start  since the session's first event, 00:00:01.250
              24hour-delta  since the previous line, 00:00:00.004
              iso8601       UTC, 2026-12-01T12:15:01.123Z
            """, defaultHelp: "24hour", parse: Parse.choice(TimestampStyle.self))
    static let hex = Flag(
        "--hex", help: "Text output shows received lines as hex pairs, line end included (4f 4b 0d 0a).")
    static let log = Option<String?>(
        "--log", value: "file",
        help: """
            Also append every record to this file, beside the output --format
            chooses: JSON Lines (docs/JSON.md), or a transcript for a name ending in
            .txt or .log (--log-format); the file is created if missing.
            """, parse: Parse.nonEmpty(InvalidValue("Please provide a path.")))
    /// The formats a `--log` file may have.
    static let logFormats: [OutputFormat] = [.json, .transcript]
    static let logFormat = Option<OutputFormat?>(
        "--log-format", value: "format",
        help: """
            The --log file's format: json (JSON Lines) or transcript (each line
            with its time, direction sent > or received <, and line end).
            """, defaultHelp: "transcript for a .txt or .log file, else json", choices: logFormats.map(\.name)
    ) { text throws(InvalidValue) in
        guard let format = logFormats.first(where: { $0.name == text.lowercased() }) else {
            throw InvalidValue("Please provide one of \(logFormats.map { "'\($0.name)'" }.joined(separator: ", ")).")
        }
        return format
    }

    /// `--format` for a command that shows `kind`: its help and choices are the
    /// formats that can show it (``OutputFormat/showing(_:)``); another format is a
    /// usage error naming it (``UnsupportedFormat``).
    static func format<View>(showing kind: ViewKind<View>, default shown: OutputFormat = .text) -> Option<OutputFormat>
    {
        format(showing: kind, refusing: true, default: shown)
    }

    private static func format<View>(
        showing kind: ViewKind<View>, refusing: Bool, default shown: OutputFormat = .text
    ) -> Option<OutputFormat> {
        let formats = OutputFormat.showing(kind)
        let width = formats.map(\.name.count).max() ?? 0
        let listed =
            formats.count > 2
            ? ":\n"
                + formats.map { "  " + $0.name + String(repeating: " ", count: width + 2 - $0.name.count) + $0.summary }
                .joined(separator: "\n")
            : ": " + formats.map { "\($0.name) (\($0.summary))" }.joined(separator: " or ") + "."
        let advice = InvalidValue("Please provide one of \(formats.map { "'\($0.name)'" }.joined(separator: ", ")).")
        return Option<OutputFormat>(
            "--format", "-f", value: "format", help: "Output" + listed, default: shown, choices: formats.map(\.name)
        ) { text throws(InvalidValue) in
            guard let format = OutputFormat.named(text) else { throw advice }
            guard refusing else { return format }
            do throws(UnsupportedFormat) {
                try format.check(kind)
            } catch {
                throw InvalidValue.message(error.description)
            }
            return format
        }
    }

    /// The options of a command that shows `kind`, for its ``CommandSpec``.
    static func options<View>(showing kind: ViewKind<View>) -> [OptionDeclaration] {
        let shown = format(showing: kind).declaration
        return options.map { $0.key == shown.key ? shown : $0 }
    }

    /// The options, for a command's ``CommandSpec``.
    static let options: [OptionDeclaration] =
        [sim.declaration, profile.declaration, device.declaration] + DeviceSettings.serialOptions
        + DeviceSettings.pacingOptions + DeviceSettings.inputOptions + DeviceSettings.lineOptions
        + [
            timeout.declaration, format(showing: .eventLog).declaration, timestamps.declaration,
            timestampFormat.declaration, hex.declaration, log.declaration, logFormat.declaration,
        ]
        + DialectOptions.options + HardwareOptions.options + faultOptions

    /// The simulator's fault options, as `tether-sim` takes them (see `tether-sim --help`),
    /// but `--reappear-after`: a simulator of `--sim` ends with tether, and so does its
    /// device, so it cannot come back.
    static let faultOptions: [OptionDeclaration] = FaultOptions.all.excluding([FaultOptions.reappearAfter.declaration])
        .map { $0.withHelp("With --sim (fault): " + $0.help.prefix(1).lowercased() + $0.help.dropFirst()) }

    /// The help of the `<port>` argument.
    static let portHelp = """
        The serial port: a device path or symlink, or a port exported over the
        network, rfc2217://HOST:PORT or tcp://HOST:PORT (omit with --sim or --match).
        """

    /// The port as typed; `nil` with `--sim`.
    var port: String?
    /// The port, parsed: a path or a `tcp://` / `rfc2217://` address.
    var address: PortAddress?
    /// Whether to run the built-in simulator.
    var usesSimulator: Bool
    /// `--profile`: the simulated device's profile, a built-in name or a file path.
    var simulatorProfile: String?
    /// Serial settings: the command line's over `--device`'s.
    var configuration: SerialConfiguration
    /// `--char-delay` and `--command-delay`, the command line's over `--device`'s.
    var pacing: Pacing
    /// `--discard-input`, the command line's over `--device`'s.
    var discardsWaitingInput: Bool
    /// `--reset`, the command line's over `--device`'s.
    var reset: LineSequence?
    /// `--rs485`, the command line's over `--device`'s.
    var rs485: RS485Settings?
    /// The reply timeout; `nil` for no deadline.
    var timeout: Duration?
    /// The output format.
    var format: OutputFormat
    /// Whether text output shows timestamps.
    var showsTimestamps: Bool
    /// `--timestamp-format`: how text and transcripts write times.
    var timestampStyle: TimestampStyle
    /// Whether text output shows received bytes in hex.
    var showsHex: Bool
    /// `--log`: the file records are appended to, if any.
    var log: String?
    /// `--log-format`, or the one `--log`'s name calls for (``OutputFormat/forLog(_:)``).
    var logFormat: OutputFormat
    /// `--dialect` and its options, the command line's over `--device`'s; the dialect
    /// itself is made when the port is known (a simulator profile gives its own default).
    var dialect: DialectOptions
    /// The settings of `--device FILE`, under the command line's own.
    var deviceDescription: SettingsLayer?
    /// `--match`, `--wait`, DTR/RTS, reconnect (see ``HardwareOptions``).
    var hardware: HardwareOptions

    /// The in-process simulator's faults (`--latency`, `--drop`, `--disconnect-after`…).
    var simulatorFaults: FaultPlan

    /// Whether a port was named: a path, `--sim` or `--match`.
    var namesPort: Bool { port != nil || usesSimulator || hardware.match != nil }

    /// Reads the options of a command whose only argument is an optional `<port>`
    /// (`monitor`, `connect`): the port, `--sim` or `--match` must name one.
    ///
    /// - Throws: ``UsageError`` for an extra argument, no port, or a bad value.
    init(portOrSimulator arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("Unexpected argument \(Quoted(arguments.positionals[1]))")
        }
        try self.init(arguments, port: arguments.positionals.first)
        if !namesPort { throw UsageError("Missing expected argument '<port>' (or give '--sim')") }
    }

    /// Reads the shared options; `port` is the positional port argument, if any;
    /// `simulatesNamedPorts` says whether `tether run` has a `--port NAME=sim`.
    ///
    /// - Throws: ``UsageError`` for a bad value, naming the option.
    init(_ arguments: ParsedArguments, port: String?, simulatesNamedPorts: Bool = false) throws(UsageError) {
        self.port = port
        usesSimulator = arguments[Self.sim]
        simulatorProfile = arguments[Self.profile]
        if simulatorProfile != nil, !usesSimulator {
            throw UsageError("'--profile' applies only to '--sim'")
        }
        simulatorFaults = try Self.faults(arguments, simulates: usesSimulator || simulatesNamedPorts)
        let description = try arguments[Self.device].map { path throws(UsageError) in
            try DeviceDescription.load(path)
        }
        deviceDescription = description
        let settings = try DeviceSettings(arguments, below: description.map { [$0] } ?? [])
        configuration = settings.configuration
        pacing = settings.pacing
        discardsWaitingInput = settings.discardsWaitingInput
        reset = settings.reset
        rs485 = settings.rs485
        dialect = settings.dialect
        let milliseconds = arguments[Self.timeout]
        timeout = milliseconds == 0 ? nil : .milliseconds(milliseconds)
        format = arguments[Self.format]
        let style = arguments[Self.timestampFormat]
        timestampStyle = style ?? .hour24
        showsTimestamps = arguments[Self.timestamps] || (style != nil && !format.isForPrograms)
        showsHex = arguments[Self.hex]
        if format != .text && arguments[Self.timestamps] {
            throw UsageError(
                "'\(Self.timestamps.declaration.key)' applies only to text output"
                    + (format == .json ? "; every JSON record carries its 'time'" : ""))
        }
        if format != .text && arguments[Self.hex] {
            throw UsageError(
                "'\(Self.hex.declaration.key)' applies only to text output"
                    + (format == .json
                        ? "; JSON records carry the exact bytes (a '_hex' field whenever a string is not exactly its bytes)"
                        : ""))
        }
        log = arguments[Self.log]
        logFormat = arguments[Self.logFormat] ?? log.map(OutputFormat.forLog) ?? .json
        if style != nil, format.isForPrograms, logFormat != .transcript {
            throw UsageError(
                "'\(Self.timestampFormat.declaration.key)' applies to text output and transcripts "
                    + "('--log FILE.txt'); every \(format.name) record carries its time")
        }
        hardware = HardwareOptions(arguments)
        if usesSimulator, hardware.waits {
            throw UsageError(
                "'--wait' applies only to a port that may not exist yet; the simulator's port exists once it starts")
        }
        if port?.isEmpty == true { throw UsageError("The port '' is empty; give a device path such as /dev/ttyUSB0") }
        address = try port.map(Self.address)
        if usesSimulator, let port {
            throw UsageError("Give either <port> or '--sim', not both (got \(Quoted(port)))")
        }
        if let match = hardware.match, usesSimulator || port != nil {
            throw UsageError(
                "Give one of <port>, '--sim' or '--match', not several (got \(Quoted("--match \(match)")))")
        }
    }
}

extension ConnectionOptions {
    /// What `--timestamps` and `--hex` ask of the view.
    var viewSettings: ViewSettings {
        ViewSettings(showsTimestamps: showsTimestamps, timestampStyle: timestampStyle, showsHex: showsHex)
    }

    /// `--format`'s view of `kind`, with ``viewSettings``.
    ///
    /// - Throws: ``UsageError`` when the format cannot show `kind` (a command's own
    ///   `--format` refuses it while parsing, see ``format(showing:)``).
    func view<View>(_ kind: ViewKind<View>) throws(UsageError) -> View {
        do throws(UnsupportedFormat) {
            return try format.make(kind, viewSettings)
        } catch {
            throw UsageError(error.description)
        }
    }

    /// Parses a port argument (see ``PortAddress``).
    ///
    /// - Throws: ``UsageError`` for a malformed `tcp://` or `rfc2217://` address.
    static func address(_ text: String) throws(UsageError) -> PortAddress {
        do throws(PortAddress.ParseError) {
            return try PortAddress(parsing: text)
        } catch {
            throw UsageError(error.description)
        }
    }

    /// The fault plan of the fault options given.
    ///
    /// - Throws: ``UsageError`` for options that do not go together, or a fault
    ///   option without a simulator (`--sim`, or `NAME=sim` in `run`).
    fileprivate static func faults(_ arguments: ParsedArguments, simulates: Bool) throws(UsageError) -> FaultPlan {
        guard let given = FaultOptions.firstGiven(in: arguments) else { return FaultPlan() }
        guard simulates else {
            throw UsageError("'\(given.key)' applies only to '--sim' (a fault of the built-in simulator)")
        }
        return try FaultOptions.plan(arguments, seed: ProfileDevice.defaultSeed)
    }
}
