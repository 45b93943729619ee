import TetherCommandLine
import TetherDeviceSettings
import TetherLibC
import TetherModel
import TetherSerial
import TetherSimulator
import TetherViews

/// What the option groups of a device command give (`Options/*`, each command lists
/// those it takes): which port (or `--sim`), serial settings, dialect, timeout and
/// output; and the rules between options of different groups (``validate(_:)``).
package struct ConnectionOptions {
    /// `--format`, read as any format: each command declares it with
    /// ``format(showing:)``, whose check refuses the formats it cannot show.
    package static let format = format(showing: .eventLog, refusing: false)

    /// `--format` for a command that shows `kind`: its help and choices are the
    /// formats that can show it (``OutputFormat/showing(_:)``); another format is a
    /// usage error naming it (``UnsupportedFormat``).
    package static func format<View>(showing kind: ViewKind<View>, default shown: OutputFormat = .text) -> Option<
        OutputFormat
    > {
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

    /// The groups of a command that opens a device and sends to it, in `--help` order
    /// (`query`, `send`, `receive`); `reconnects` adds ``ReconnectOptions`` and
    /// ``FirmwareOptions`` (`connect`, `run`: the commands that watch a device's log).
    package static func sendingGroups(reconnects: Bool = false) -> [any OptionGroup.Type] {
        [
            SimulatorOptions.self, PortOptions.self, SerialOptions.self, ReplyOptions.self, DialectGroup.self,
            OutputOptions.self,
        ] + (reconnects ? [ReconnectOptions.self, FirmwareOptions.self] : []) + [
            TextOutputOptions.self, ReplyTuningOptions.self, DialectTuningOptions.self, PacingOptions.self,
            PortControlOptions.self, LineControlOptions.self, SimulatorFaultOptions.self,
        ]
    }

    /// Whether `--sim` or `--match` names the port, so no positional argument is the port.
    package static func namesPortByOption(_ arguments: ParsedArguments) -> Bool {
        arguments[SimulatorOptions.self].sim || arguments[PortOptions.self].match != nil
    }

    /// The help of the `<port>` argument.
    package static let portHelp = """
        The serial port: a device path or symlink, a port exported over the
        network, rfc2217://HOST:PORT or tcp://HOST:PORT, or a named device of
        ~/.config/tether/config (docs/CONFIG.md); omit with --sim or --match.
        """

    /// The port as typed; `nil` with `--sim`.
    package var port: String?
    /// The port, parsed: a path or a `tcp://` / `rfc2217://` address.
    package var address: PortAddress?
    /// Whether to run the built-in simulator.
    package var usesSimulator: Bool
    /// `--profile`: the simulated device's profile, a built-in name or a file path.
    package var simulatorProfile: String?
    /// The device's settings — serial, pacing, `--discard-input`, `--reset`,
    /// `--rs485`, the dialect and its options — the command line's over `--device`'s
    /// and a named device's (``settingsBelow``); the dialect itself is made when the
    /// port is known (a simulator profile gives its own default).
    package var settings: DeviceSettings
    /// The reply timeout; `nil` for no deadline.
    package var timeout: Duration?
    /// `--quiet`: no informational lines on standard error.
    package var isQuiet: Bool
    /// The output format.
    package var format: OutputFormat
    /// Whether text output shows timestamps.
    package var showsTimestamps: Bool
    /// `--timestamp-format`: how text and transcripts write times.
    package var timestampStyle: TimestampStyle
    /// Whether text output shows received bytes in hex.
    package var showsHex: Bool
    /// `connect --color`: when the text view of standard output is coloured (a
    /// `--log` file's never is).
    package var colour = ColorChoice.auto
    /// `--log`: the file records are appended to, if any.
    package var log: String?
    /// `--log-format`, or the one `--log`'s name calls for (``OutputFormat/forLog(_:)``).
    package var logFormat: OutputFormat
    /// The settings under the command line's own, lowest first: a named device's
    /// (``NamedDevice``), then `--device FILE`'s.
    package var settingsBelow: [SettingsLayer]
    /// `--match`, `--wait`, DTR/RTS, reconnect (see ``HardwareOptions``).
    package var hardware: HardwareOptions

    /// The in-process simulator's faults (`--latency`, `--drop`, `--disconnect-after`…).
    package var simulatorFaults: FaultPlan

    /// Whether a port was named: a path, `--sim` or `--match`.
    package var namesPort: Bool { port != nil || usesSimulator || hardware.match != nil }

    /// Reads the options of a command whose only argument is an optional `<port>`
    /// (`monitor`, `connect`): the port, `--sim` or `--match` must name one.
    ///
    /// - Throws: ``UsageError`` for an extra argument, no port, or a bad value.
    package init(portOrSimulator arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("Unexpected argument \(Quoted(arguments.positionals[1]))")
        }
        try self.init(arguments, port: arguments.positionals.first)
        try requirePort()
    }

    /// The options of a command whose first argument is the port unless `--sim` or
    /// `--match` names it (`query`, `send`, `receive`), and the arguments after it.
    ///
    /// - Throws: ``UsageError`` for no port, or a bad value.
    package static func withPortFirst(_ arguments: ParsedArguments) throws(UsageError) -> (Self, rest: [String]) {
        var rest = arguments.positionals
        let port = namesPortByOption(arguments) || rest.isEmpty ? nil : rest.removeFirst()
        let options = try ConnectionOptions(arguments, port: port)
        try options.requirePort()
        return (options, rest)
    }

    /// - Throws: ``UsageError`` when no port was named: no path, `--sim` or `--match`.
    package func requirePort() throws(UsageError) {
        if !namesPort { throw UsageError("Missing expected argument '<port>' (or give '--sim')") }
    }

    /// Reads the shared options; `port` is the positional port argument, if any;
    /// `simulatesNamedPorts` says whether `tether run` has a `--port NAME=sim`.
    ///
    /// - Throws: ``UsageError`` for a bad value, naming the option, or options of
    ///   several groups that do not go together (``validate(_:)``).
    package init(_ arguments: ParsedArguments, port: String?, simulatesNamedPorts: Bool = false) throws(UsageError) {
        let simulator = arguments[SimulatorOptions.self]
        let output = arguments[OutputOptions.self]
        let text = arguments[TextOutputOptions.self]
        let named = try port.flatMap(Self.namedDevice)
        if named != nil, simulator.sim {
            throw UsageError("Give either <port> or '--sim', not both (got \(Quoted(port ?? "")))")
        }
        self.port = port
        usesSimulator = simulator.sim
        simulatorProfile = simulator.profile
        var namedMatch: PortMatch?
        switch named?.place {
        case .port(let place): self.port = place
        case .match(let match): (self.port, namedMatch) = (nil, match)
        case .simulator(let profile):
            (self.port, usesSimulator) = (nil, true)
            simulatorProfile = simulatorProfile ?? profile
        case nil: break
        }
        simulatorFaults = try Self.faults(arguments, simulates: usesSimulator || simulatesNamedPorts)
        let description = try arguments[PortOptions.self].device.map { path throws(UsageError) in
            try DeviceDescription.load(path)
        }
        settingsBelow = (named?.settings ?? []) + (description.map { [$0] } ?? [])
        settings = try DeviceSettings(arguments, below: settingsBelow)
        let wait = arguments[ReplyOptions.timeout]
        timeout = wait == .zero ? nil : wait
        isQuiet = output.quiet
        format = arguments[Self.format]
        let style = text.timestampFormat
        timestampStyle = style ?? .hour24
        showsTimestamps = text.timestamps || (style != nil && !format.isForPrograms)
        showsHex = text.hex
        log = output.log
        logFormat = output.logFormat ?? log.map(OutputFormat.forLog) ?? .json
        hardware = HardwareOptions(arguments)
        hardware.match = hardware.match ?? namedMatch
        if self.port?.isEmpty == true {
            throw UsageError("The port '' is empty; give a device path such as /dev/ttyUSB0")
        }
        address = try self.port.map(Self.address)
        try validate(arguments)
    }

    /// The rules between options of different groups: text-only options with a format
    /// for programs, `--wait` with the simulator, and one of `<port>`, `--sim`, `--match`.
    private func validate(_ arguments: ParsedArguments) throws(UsageError) {
        let text = arguments[TextOutputOptions.self]
        if format != .text && text.timestamps {
            throw UsageError(
                "'--timestamps' applies only to text output"
                    + (format == .json ? "; every JSON record carries its 'time'" : ""))
        }
        if format != .text && text.hex {
            throw UsageError(
                "'--hex' applies only to text output"
                    + (format == .json
                        ? "; JSON records carry the exact bytes (a '_hex' field whenever a string is not exactly its bytes)"
                        : ""))
        }
        if text.timestampFormat != nil, format.isForPrograms, logFormat != .transcript {
            throw UsageError(
                "'--timestamp-format' applies to text output and transcripts "
                    + "('--log FILE.txt'); every \(format.name) record carries its time")
        }
        if usesSimulator, hardware.waits {
            throw UsageError(
                "'--wait' applies only to a port that may not exist yet; the simulator's port exists once it starts")
        }
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
    package var viewSettings: ViewSettings {
        ViewSettings(
            showsTimestamps: showsTimestamps, timestampStyle: timestampStyle, showsHex: showsHex, isQuiet: isQuiet)
    }

    /// The `--log` file, if one is given, with its format's view of `kind`.
    ///
    /// - Throws: ``CommandFailure`` (73) when it cannot be opened.
    package func logFile<View>(showing kind: ViewKind<View>) throws(CommandFailure) -> LogFile<View>? {
        try log.map { path throws(CommandFailure) in
            try LogFile(path: path, format: logFormat, showing: kind, settings: viewSettings)
        }
    }

    /// `--format`'s view of `kind`, with ``viewSettings``.
    ///
    /// - Throws: ``UsageError`` when the format cannot show `kind` (a command's own
    ///   `--format` refuses it while parsing, see ``format(showing:)``).
    package func view<View>(_ kind: ViewKind<View>) throws(UsageError) -> View {
        do throws(UnsupportedFormat) {
            var settings = viewSettings
            settings.colour = colour
            return try format.make(kind, settings)
        } catch {
            throw UsageError(error.description)
        }
    }

    /// The named device a port argument names (``NamedDevices``): only a text that may
    /// be a name (no `/`, no `:`) and is no file here.
    ///
    /// - Throws: ``UsageError`` for a configuration file or section that cannot be read.
    package static func namedDevice(_ port: String) throws(UsageError) -> NamedDevice? {
        guard NamedDevices.mayName(port), FileSystem.kind(atPath: port) == nil else { return nil }
        return try NamedDevices().device(named: port)
    }

    /// Parses a port argument (see ``PortAddress``).
    ///
    /// - Throws: ``UsageError`` for a malformed `tcp://` or `rfc2217://` address.
    package static func address(_ text: String) throws(UsageError) -> PortAddress {
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
        guard let given = SimulatorFaultOptions.options.first(where: arguments.isGiven) else { return FaultPlan() }
        guard simulates else {
            throw UsageError("'\(given.key)' applies only to '--sim' (a fault of the built-in simulator)")
        }
        return try FaultOptions.plan(arguments, seed: ProfileDevice.defaultSeed)
    }
}
