import TetherSerial

/// One device's own settings: its serial settings and its dialect options.
///
/// They come in layers, each overriding the one before (see ``SettingsLayer``): a
/// `--device FILE` description, the command line's options, and in `tether run` a
/// port's own description file and inline settings (`--port NAME=PATH,KEY=VALUE…`).
struct DeviceSettings {
    /// The serial settings' options.
    static let serialSpecs: [OptionSpec] = [
        .value("--baud", "-b", name: "rate", help: "Baud rate in bit/s. (default: 115200)"),
        .value("--data-bits", name: "bits", help: "Data bits: 5, 6, 7 or 8. (default: 8)"),
        .value("--parity", name: "parity", help: "Parity: none, odd, even, mark or space. (default: none)"),
        .value("--stop-bits", name: "bits", help: "Stop bits: 1 or 2. (default: 1)"),
        .value("--flow-control", name: "mode", help: "Flow control: none, rtscts, xonxoff or dtrdsr. (default: none)"),
    ]

    /// Every option a device description or inline settings may give, by its long name:
    /// the serial settings and every dialect option (``DialectOptions/specs``), so a new
    /// dialect option is a description key at once.
    static var specs: [OptionSpec] { serialSpecs + DialectOptions.specs }

    /// Serial settings.
    var configuration: SerialConfiguration
    /// `--dialect` and its options.
    var dialect: DialectOptions

    /// Reads the settings from `arguments` (whose spec must hold ``specs``).
    ///
    /// - Throws: ``UsageError`` for a bad value, naming the option.
    init(_ arguments: ParsedArguments) throws(UsageError) {
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
        dialect = try DialectOptions(arguments)
    }

    /// The settings of `arguments` under the layers `below` it (a `--device` file) and
    /// over it (a port's own file and inline settings), each later one overriding.
    ///
    /// - Throws: ``UsageError`` for a bad value, naming the option.
    init(_ arguments: ParsedArguments, below: [SettingsLayer] = [], above: [SettingsLayer] = []) throws(UsageError) {
        var merged = ParsedArguments(spec: arguments.spec)
        for layer in below + [SettingsLayer(arguments)] + above { merged.override(with: layer) }
        try self.init(merged)
    }
}
