import TetherModel
import TetherSerial
import TetherSimulator

/// The options every device command shares: which port (or `--sim`), serial
/// settings, dialect, timeout and output format.
struct ConnectionOptions {
    /// The options' specs, for a command's ``CommandSpec``.
    static let specs: [OptionSpec] = serialSpecs + HardwareOptions.specs + faultSpecs

    /// The simulator's fault options, as `tether-sim` takes them (see `tether-sim --help`),
    /// but `--reappear-after`: a simulator of `--sim` ends with tether, and so does its
    /// device, so it cannot come back.
    static let faultSpecs: [OptionSpec] = FaultOptions.all.filter { $0.name != "--reappear-after" }.map { option in
        OptionSpec(
            names: [option.name], valueName: option.value, help: "With --sim (fault): " + option.help.lowercasedFirst)
    }

    private static let serialSpecs: [OptionSpec] =
        [
            .flag("--sim", help: "Start the built-in device simulator in-process and use it instead of <port>."),
            .value(
                "--profile", name: "name|file",
                help: "With --sim: the simulated device, a built-in profile (env, at-modem,\n"
                    + "scpi-psu, prompt-console) or a profile file (docs/PROFILES.md); it also\n"
                    + "sets the default --dialect. (default: env)"),
            .value(
                "--device", name: "file",
                help: "A device description file (docs/DIALECTS.md): dialect, line end,\n"
                    + "patterns and serial settings; options given here override it."),
        ] + DeviceSettings.serialSpecs + [
            .value(
                "--timeout", "-t", name: "ms",
                help:
                    "Wait at most this many ms for each reply; 0 waits without a deadline\n(a hang-up still ends the wait). (default: \(defaultTimeout))"
            ),
            .value(
                "--format", "-f", name: "format",
                help: "Output: text (for people) or json (JSON Lines). (default: text)"),
            .flag("--timestamps", help: "Prefix text output with the time of each event."),
            .flag("--hex", help: "Text output shows received bytes as hex pairs (0d 0a) instead of text."),
            .value(
                "--log", name: "file",
                help: "Also append every record to this file as JSON Lines (docs/JSON.md),\n"
                    + "beside the output --format chooses; the file is created if missing."),
        ] + DialectOptions.specs

    /// The help of the `<port>` argument.
    static let portHelp = """
        The serial port: a device path or symlink, or a port exported over the
        network, rfc2217://HOST:PORT or tcp://HOST:PORT (omit with --sim or --match).
        """

    /// The reply timeout when `--timeout` is not given, in ms.
    static let defaultTimeout = 1000

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
    /// The reply timeout; `nil` for no deadline.
    var timeout: Duration?
    /// The output format.
    var format: OutputFormat
    /// Whether text output shows timestamps.
    var showsTimestamps: Bool
    /// Whether text output shows received bytes in hex.
    var showsHex: Bool
    /// `--log`: the JSON Lines file records are appended to, if any.
    var log: String?
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
            throw UsageError("Unexpected argument '\(arguments.positionals[1])'")
        }
        try self.init(arguments, port: arguments.positionals.first)
        if !namesPort { throw UsageError("Missing expected argument '<port>' (or give '--sim')") }
    }

    /// Reads the shared options; `port` is the positional port argument, if any.
    ///
    /// - Throws: ``UsageError`` for a bad value, naming the option.
    init(_ arguments: ParsedArguments, port: String?) throws(UsageError) {
        self.port = port
        usesSimulator = arguments.has("--sim")
        simulatorProfile = arguments.value("--profile")
        if simulatorProfile != nil, !usesSimulator {
            throw UsageError("'--profile' applies only to '--sim'")
        }
        simulatorFaults = try Self.faults(arguments, usesSimulator: usesSimulator)
        let description = try arguments.value("--device").map { path throws(UsageError) in
            try DeviceDescription.load(path)
        }
        deviceDescription = description
        let settings = try DeviceSettings(arguments, below: description.map { [$0] } ?? [])
        configuration = settings.configuration
        dialect = settings.dialect
        let milliseconds =
            try arguments.value(
                "--timeout", expected: "Please provide a whole number of milliseconds, 0 or more.",
                { Int($0).flatMap { $0 >= 0 ? $0 : nil } }) ?? Self.defaultTimeout
        timeout = milliseconds == 0 ? nil : .milliseconds(milliseconds)
        format = try arguments.choice("--format", as: OutputFormat.self) ?? .text
        showsTimestamps = arguments.has("--timestamps")
        showsHex = arguments.has("--hex")
        if format == .json, let flag = ["--timestamps", "--hex"].first(where: arguments.has) {
            throw UsageError("'\(flag)' applies only to text output; JSON records always carry 'time' and exact bytes")
        }
        log = arguments.value("--log")
        if log?.isEmpty == true {
            throw UsageError("The value '' is invalid for '--log <file>'. Please provide a path.")
        }
        hardware = try HardwareOptions(arguments)
        if port?.isEmpty == true { throw UsageError("The port '' is empty; give a device path such as /dev/ttyUSB0") }
        address = try port.map(Self.address)
        if usesSimulator, let port {
            throw UsageError("Give either <port> or '--sim', not both (got '\(port)')")
        }
        if let match = hardware.match, usesSimulator || port != nil {
            throw UsageError("Give one of <port>, '--sim' or '--match', not several (got '--match \(match)')")
        }
    }
}

extension ConnectionOptions {
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
    /// - Throws: ``UsageError`` for a bad value, or a fault option without a simulator
    ///   (`--sim`, or `NAME=sim` in `run`).
    fileprivate static func faults(_ arguments: ParsedArguments, usesSimulator: Bool) throws(UsageError) -> FaultPlan {
        var faults = FaultOptions()
        for option in FaultOptions.all where arguments.spec.option(named: option.name) != nil {
            let given: [String?] =
                option.value == nil ? (arguments.has(option.name) ? [nil] : []) : arguments.allValues(option.name)
            for value in given {
                do throws(FaultOptions.Mistake) {
                    try faults.apply(option, value: value)
                } catch {
                    throw UsageError(error.message)
                }
            }
        }
        if faults.isEmpty { return FaultPlan() }
        let simulates =
            usesSimulator
            || arguments.allValues("--port").contains { (try? NamedPort(parsing: $0))?.target.isSimulator == true }
        guard simulates else {
            let names = FaultOptions.all.map(\.name).filter { arguments.has($0) || arguments.value($0) != nil }
            throw UsageError(
                "'\(names.first ?? "--latency")' applies only to '--sim' (a fault of the built-in simulator)")
        }
        do throws(FaultOptions.Mistake) {
            return try faults.plan(seed: ProfileDevice.defaultSeed)
        } catch {
            throw UsageError(error.message)
        }
    }
}

extension String {
    /// The text with its first letter in lower case (`Delay …` → `delay …`).
    fileprivate var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}

/// The output format (`--format`).
enum OutputFormat: String, CaseIterable {
    /// Text for people.
    case text
    /// JSON Lines for programs.
    case json
}
