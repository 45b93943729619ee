import TetherCommandLine
import TetherModel
import TetherSerial

/// One device's own settings: its serial settings and its dialect options.
///
/// They come in layers, each overriding the one before (see ``SettingsLayer``): a
/// `--device FILE` description, the command line's options, and in `tether run` a
/// port's own description file and inline settings (`--port NAME=PATH,KEY=VALUE…`).
public struct DeviceSettings {
    public static let baud = Option<Int>(
        "--baud", "-b", value: "rate", help: "Baud rate in bit/s, e.g. 9600 or 115200.",
        default: SerialConfiguration().baudRate, range: .integers(SerialConfiguration.baudRates, "baud"))
    public static let dataBits = Option<Int>(
        "--data-bits", value: "bits", help: "Data bits: 5, 6, 7 or 8.", default: SerialConfiguration().dataBits,
        parse: serialField(\.dataBits, "Please provide one of '5', '6', '7', '8'."))
    public static let parity = Option<Parity>(
        "--parity", value: "parity", help: "Parity: none, odd, even, mark or space.",
        default: SerialConfiguration().parity, parse: Parse.choice(Parity.self))
    public static let stopBits = Option<Int>(
        "--stop-bits", value: "bits", help: "Stop bits: 1 or 2.", default: SerialConfiguration().stopBits,
        parse: serialField(\.stopBits, "Please provide one of '1', '2'."))
    public static let flowControl = Option<FlowControl>(
        "--flow-control", value: "mode", help: "Flow control: none, rtscts, xonxoff or dtrdsr.",
        default: SerialConfiguration().flowControl, parse: Parse.choice(FlowControl.self))

    public static let charDelay = Option<Int>(
        "--char-delay", value: "duration",
        help: "Pause this long after each byte sent, for a receiver\n"
            + "without a FIFO (immediate writes are not paced).",
        default: 0, range: pacing)
    public static let commandDelay = Option<Int>(
        "--command-delay", value: "duration", help: "Pause this long after each command sent, before the next.",
        default: 0, range: pacing)
    private static let pacing = ValueRange.milliseconds(0...10_000)

    public static let discardInput = Flag(
        "--discard-input",
        help: """
            Discard what is waiting to be read when the port opens (a banner, what another
            program left unread), as pyserial's reset_input_buffer() does; without it that
            input is shown as notifications before the first command.
            """)

    public static let reset = Option<LineSequence?>(
        "--reset", value: "sequence",
        help: """
            After each open, run this DTR/RTS sequence before the first command:
            esptool-classic, esptool-unix-tight, esptool-usb-jtag-serial,
            esptool-hard-reset, dtr-pulse, or steps in esptool's syntax, e.g.
            D0|R1|W0.1|D1|R0|W0.05|D0 (docs/HARDWARE.md, "Reset sequences").
            """
    ) { text throws(InvalidValue) in
        do throws(LineSequence.ParseError) {
            return try LineSequence.parse(text)
        } catch {
            throw .message(error.description)
        }
    }

    public static let rs485 = Option<RS485Settings?>(
        "--rs485", value: "before,after",
        help: """
            Drive RTS as an RS-485 transceiver's driver enable: raised this many ms
            before each write and kept this many ms after it (0 to 1000 each, e.g.
            1,1) — by the driver (TIOCSRS485) where it can, else by tether around
            each write; the open says which (docs/HARDWARE.md, "RS-485").
            """
    ) { text throws(InvalidValue) in
        guard let settings = RS485Settings(parsing: text) else {
            throw .message("expected the delays before and after each write in ms, 0 to 1000, e.g. 1,1")
        }
        return settings
    }

    public static let elf = Option<String?>(
        "--elf", value: "file",
        help: """
            The firmware's ELF file: the code addresses of crash reports (ESP-IDF
            backtraces, Zephyr fatal errors, Cortex-M fault dumps) are shown with
            their function, file and line (docs/FIRMWARE.md).
            """, parse: Parse.nonEmpty(InvalidValue("Please provide the firmware's ELF file.")))

    public static let crashFields = Option<[String]?>(
        "--crash-fields", value: "names",
        help: """
            More register fields whose 0x… value --elf looks up, beside the known crash
            formats', comma-separated: e.g. EPC1,EXCVADDR matches 'EPC1    : 0x400d1a2b'.
            """
    ) { text throws(InvalidValue) in
        let names = text.split(separator: ",").map { $0.trimmingPrefix(" ") }.map(String.init)
        guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty }) else {
            throw InvalidValue("Please provide the fields' names, comma-separated, e.g. EPC1,EXCVADDR.")
        }
        return names
    }

    /// The serial settings' options.
    public static let serialOptions = [
        baud.declaration, dataBits.declaration, parity.declaration, stopBits.declaration, flowControl.declaration,
    ]

    /// The pacing options (``Pacing``).
    public static let pacingOptions = [charDelay.declaration, commandDelay.declaration]

    /// What to do with the input waiting at open (`--discard-input`).
    public static let inputOptions = [discardInput.declaration]

    /// What to do to the lines after each open and around each write (`--reset`, `--rs485`).
    public static let lineOptions = [reset.declaration, rs485.declaration]

    /// What is known of the device's firmware (`--elf`).
    public static let firmwareOptions = [elf.declaration, crashFields.declaration]

    /// Every option a device description or inline settings may give, by its long name:
    /// the serial settings, the pacing and every dialect option
    /// (``DialectOptions/options``), so a new dialect option is a description key at once.
    public static var options: [OptionDeclaration] {
        serialOptions + pacingOptions + inputOptions + lineOptions + firmwareOptions + DialectOptions.options
    }

    /// Every device option, for merging layers: a file may give a setting this command
    /// does not take (`eol` or `urc` under `monitor`, which sends nothing). The file
    /// describes the device; each command uses what applies to it. A layer's keys are
    /// checked against ``options`` when it is read (``SettingsLayer/set(_:to:)``).
    private static let spec = CommandSpec(program: "tether", abstract: "device settings", options: options)

    /// Serial settings.
    public var configuration: SerialConfiguration
    /// `--dialect` and its options.
    public var dialect: DialectOptions
    /// `--char-delay` and `--command-delay`.
    public var pacing: Pacing
    /// `--discard-input`: the input waiting at open is discarded, not shown.
    public var discardsWaitingInput: Bool
    /// `--reset`: the line sequence run after each open.
    public var reset: LineSequence?
    /// `--rs485`: RS-485 direction control and its delays.
    public var rs485: RS485Settings?
    /// `--elf`: the path of the firmware's ELF file.
    public var elf: String?
    /// `--crash-fields`: register fields to look up beside the known crash formats'.
    public var crashFields: [String]

    /// Reads the settings from `arguments` (whose spec must hold ``options``).
    public init(_ arguments: ParsedArguments) {
        configuration = SerialConfiguration(
            baudRate: arguments[Self.baud], dataBits: arguments[Self.dataBits], parity: arguments[Self.parity],
            stopBits: arguments[Self.stopBits], flowControl: arguments[Self.flowControl])
        dialect = DialectOptions(arguments)
        pacing = Pacing(
            characterDelay: .milliseconds(arguments[Self.charDelay]),
            commandDelay: .milliseconds(arguments[Self.commandDelay]))
        discardsWaitingInput = arguments[Self.discardInput]
        reset = arguments[Self.reset]
        rs485 = arguments[Self.rs485]
        elf = arguments[Self.elf]
        crashFields = arguments[Self.crashFields] ?? []
    }

    /// The settings of `arguments` under the layers `below` it (a `--device` file) and
    /// over it (a port's own file and inline settings), each later one overriding.
    ///
    /// - Throws: ``UsageError`` for a bad value, naming the option.
    public init(_ arguments: ParsedArguments, below: [SettingsLayer] = [], above: [SettingsLayer] = [])
        throws(UsageError)
    {
        var merged = ParsedArguments(spec: Self.spec)
        for layer in below + [SettingsLayer(arguments)] + above {
            try merged.override(values: layer.values, flags: layer.flags)
        }
        self.init(merged)
    }

    /// A parser of a whole-number field of ``SerialConfiguration``, whose
    /// ``SerialConfiguration/validate()`` holds the range.
    private static func serialField(
        _ field: WritableKeyPath<SerialConfiguration, Int> & Sendable, _ advice: String
    ) -> @Sendable (String) throws(InvalidValue) -> Int {
        { text throws(InvalidValue) in
            var configuration = SerialConfiguration()
            guard let number = Int(text) else { throw InvalidValue(advice) }
            configuration[keyPath: field] = number
            do {
                try configuration.validate()
            } catch {
                throw InvalidValue(advice)
            }
            return number
        }
    }
}
