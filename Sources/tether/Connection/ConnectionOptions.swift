import TetherModel
import TetherSerial

/// The options every device command shares: which port (or `--sim`), serial
/// settings, dialect, timeout and output format.
struct ConnectionOptions {
    /// The options' specs, for a command's ``CommandSpec``.
    static let specs: [OptionSpec] = serialSpecs + HardwareOptions.specs

    private static let serialSpecs: [OptionSpec] =
        [
            .flag("--sim", help: "Start the built-in device simulator in-process and use it instead of <port>."),
            .value(
                "--profile", name: "name|file",
                help: "With --sim: the simulated device, a built-in profile (env, at-modem,\n"
                    + "scpi-psu, prompt-console) or a profile file (docs/PROFILES.md); it also\n"
                    + "sets the default --dialect. (default: env)"),
            .value("--baud", "-b", name: "rate", help: "Baud rate in bit/s. (default: 115200)"),
            .value("--data-bits", name: "bits", help: "Data bits: 5, 6, 7 or 8. (default: 8)"),
            .value("--parity", name: "parity", help: "Parity: none, odd, even, mark or space. (default: none)"),
            .value("--stop-bits", name: "bits", help: "Stop bits: 1 or 2. (default: 1)"),
            .value(
                "--flow-control", name: "mode",
                help: "Flow control: none, rtscts, xonxoff or dtrdsr. (default: none)"),
            .value(
                "--timeout", "-t", name: "ms",
                help:
                    "Wait at most this many ms for each reply; 0 waits without a deadline\n(a hang-up still ends the wait). (default: \(defaultTimeout))"
            ),
            .value(
                "--format", "-f", name: "format",
                help: "Output: text (for people) or json (JSON Lines). (default: text)"),
            .flag("--timestamps", help: "Prefix text output with the time of each event."),
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
    /// Serial settings.
    var configuration: SerialConfiguration
    /// The reply timeout; `nil` for no deadline.
    var timeout: Duration?
    /// The output format.
    var format: OutputFormat
    /// Whether text output shows timestamps.
    var showsTimestamps: Bool
    /// `--dialect` and its options; the dialect itself is made when the port is known
    /// (a simulator profile gives its own default).
    var dialect: DialectOptions
    /// `--match`, `--wait`, DTR/RTS, reconnect (see ``HardwareOptions``).
    var hardware: HardwareOptions

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
        var configuration = SerialConfiguration()
        if let baud = try arguments.value(
            "--baud", expected: "Please provide a positive whole number of baud, e.g. 9600 or 115200.",
            { Int($0).flatMap { $0 > 0 ? $0 : nil } })
        {
            configuration.baudRate = baud
        }
        if let bits = try arguments.value(
            "--data-bits", expected: "Please provide one of '5', '6', '7', '8'.",
            { Int($0).flatMap { (5...8).contains($0) ? $0 : nil } })
        {
            configuration.dataBits = bits
        }
        if let parity = try arguments.choice("--parity", as: Parity.self) { configuration.parity = parity }
        if let bits = try arguments.value(
            "--stop-bits", expected: "Please provide one of '1', '2'.",
            { Int($0).flatMap { $0 == 1 || $0 == 2 ? $0 : nil } })
        {
            configuration.stopBits = bits
        }
        if let flow = try arguments.choice("--flow-control", as: FlowControl.self) {
            configuration.flowControl = flow
        }
        self.configuration = configuration
        let milliseconds =
            try arguments.value(
                "--timeout", expected: "Please provide a whole number of milliseconds, 0 or more.",
                { Int($0).flatMap { $0 >= 0 ? $0 : nil } }) ?? Self.defaultTimeout
        timeout = milliseconds == 0 ? nil : .milliseconds(milliseconds)
        format = try arguments.choice("--format", as: OutputFormat.self) ?? .text
        showsTimestamps = arguments.has("--timestamps")
        dialect = try DialectOptions(arguments)
        hardware = try HardwareOptions(arguments)
        if port?.isEmpty == true { throw UsageError("The port '' is empty; give a device path such as /dev/ttyUSB0") }
        address = try port.map(Self.address)
        if case .tcp = address, let option = hardware.lineOptionGiven {
            throw UsageError("'\(option)' needs a serial port or an rfc2217:// address; tcp:// carries only data")
        }
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
}

/// The output format (`--format`).
enum OutputFormat: String, CaseIterable {
    /// Text for people.
    case text
    /// JSON Lines for programs.
    case json
}
