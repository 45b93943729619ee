import FoundationEssentials
import TetherCommandLine
import TetherConnection
import TetherDeviceSettings
import TetherLibC
import TetherPresenter
import TetherSerial
import TetherViews

/// `tether lines`: the modem control lines of a port.
enum LinesCommand: Command {
    static let spec = CommandSpec(
        program: "tether", name: "lines",
        abstract: "Show a port's modem control lines (DTR RTS CTS DSR DCD RI).",
        discussion: """
            Opens the port (with --dtr/--rts applied, if given), prints whether each line
            is asserted, and closes it, leaving DTR as it was unless --dtr says otherwise.
            A pseudo-terminal has no such lines: tether emulates them there (DTR and RTS
            as last set, on until set; CTS, DSR and DCD on; RI off) and says so
            ("emulated": true in JSON). Over rfc2217:// the server reports them (RFC 2217
            NOTIFY-MODEMSTATE); tcp:// carries none.

            EXAMPLES:
              tether lines /dev/ttyUSB0
              tether lines --match 0403:6001 --dtr off --format json
              tether lines rfc2217://lab-host:7001 --log lines.jsonl
            """,
        arguments: [
            ArgumentSpec(
                name: "port",
                help: "The serial port: a device path or symlink, or rfc2217://HOST:PORT\n(or give --match).",
                isOptional: true)
        ],
        options: [ConnectionOptions.format(showing: .modemLines).declaration],
        groups: [
            PortOptions.self, SerialOptions.self, OutputOptions.self, PacingOptions.self, PortControlOptions.self,
        ],
        usage: "tether lines (<port> | --match <id>) [<options>]"
    )

    /// Each line of the view state and the transport's bit for it.
    private static let bits: [(ModemLineStatus.Line, ModemLines)] = [
        (.dtr, .dtr), (.rts, .rts), (.cts, .cts), (.dsr, .dsr), (.dcd, .dcd), (.ri, .ri),
    ]

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("Unexpected argument \(Quoted(arguments.positionals[1]))")
        }
        let options = try ConnectionOptions(arguments, port: arguments.positionals.first)
        guard options.namesPort, !options.usesSimulator else {
            throw UsageError("Missing expected argument '<port>' (or give '--match')")
        }
        if case .tcp = options.address {
            throw UsageError("tcp:// carries no modem lines; the server must speak RFC 2217 (rfc2217://)")
        }
        let log = try options.logFile(showing: .modemLines)
        let opener = options.hardware.opener(address: options.address, configuration: options.settings.configuration)
        let view = try options.view(.modemLines)
        let waitingView: any DeviceView = log.map { FanOutView([view, $0.view]) } ?? view
        let port = try await options.hardware.openFirst(with: opener, address: options.address) {
            Presenter(port: $0).presentWaiting(for: $0, to: waitingView)
        }
        defer { port.close() }
        let lines: ModemLines
        do {
            switch port {
            case let serial as SerialPort: lines = try serial.modemLines()
            case let remote as RFC2217Port: lines = try remote.modemLines()
            default: throw CommandFailure("the port is not a serial port", code: .portUnavailable)
            }
        } catch let error as SerialError {
            throw CommandFailure(error)
        }
        let status = ModemLineStatus(
            time: Date(), port: port.name, asserted: Set(bits.filter { lines.contains($0.1) }.map(\.0)),
            isEmulated: (port as? SerialPort)?.isPseudoTerminal ?? false)
        view.render(modemLines: status)
        log?.view.render(modemLines: status)
        try log?.check()
        return .success
    }
}
