import Glibc
import TetherCommandLine
import TetherConnection
import TetherLibC
import TetherModel
import TetherSerial
import TetherViews

/// `tether udev-rule`: a udev rule giving a connected USB adapter a stable name.
enum UdevRuleCommand: Command {
    static let name = Option<String?>(
        "--name", value: "name", help: "The link to create under /dev, e.g. bench-psu.", parse: Parse.text)
    static let match = PortOptions().match.withHelp("Pick the adapter by VID:PID[:SERIAL] or product name.")

    static let spec = CommandSpec(
        program: "tether", name: "udev-rule",
        abstract: "Print a udev rule that names a connected USB serial adapter /dev/<name>.",
        discussion: """
            The rule matches the adapter by USB vendor ID, product ID and serial number
            (as 'tether list' shows them), creates the link /dev/<name>, gives the
            'dialout' group access (GROUP="dialout", MODE="0660") and keeps ModemManager
            away. Install it as the comment in its first lines says; see docs/HARDWARE.md.
            Exits 66 when the port does not exist, 69 when it is not a USB adapter (a
            built-in UART, a pseudo-terminal), 64 for a bad name.

            EXAMPLE:
              tether udev-rule /dev/ttyUSB0 --name bench-psu > 99-bench-psu.rules
            """,
        arguments: [ArgumentSpec(name: "port", help: "The adapter's port (or give --match).", isOptional: true)],
        options: [name.declaration, match.declaration],
        usage: "tether udev-rule (<port> | --match <id>) --name <name>"
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("Unexpected argument \(Quoted(arguments.positionals[1]))")
        }
        guard let name = arguments[Self.name] else { throw UsageError("Missing expected option '--name <name>'") }
        do {
            try UdevRule.validate(name: name)
        } catch {
            throw UsageError(error.description)
        }
        let port = try selectedPort(arguments)
        do {
            FileSink.standardOutput.write(try UdevRule.text(for: port, name: name))
        } catch {
            throw CommandFailure(error.description, code: .portUnavailable)
        }
        return .success
    }

    /// The listing entry of the port given by path or `--match`.
    private static func selectedPort(_ arguments: ParsedArguments) throws -> SerialPortInfo {
        let ports: [SerialPortInfo]
        do {
            ports = try SerialPortInfo.list()
        } catch {
            throw CommandFailure(error)
        }
        if let match = arguments[Self.match] {
            guard arguments.positionals.isEmpty else { throw UsageError("Give either <port> or '--match', not both") }
            if case .selected(let port) = PortSelection(match, among: ports) { return port }
            throw HardwareOptions.selectionFailure(match) ?? CommandFailure("the port went away", code: .portNotFound)
        }
        guard let path = arguments.positionals.first else {
            throw UsageError("Missing expected argument '<port>' (or give '--match')")
        }
        if try ConnectionOptions.address(path).isRemote {
            throw UsageError("A udev rule names an adapter on this machine; \(Quoted(path)) is a network address")
        }
        guard let resolved = realpath(path, nil) else { throw CommandFailure(SerialError.notFound(path: path)) }
        defer { free(resolved) }
        let node = String(cString: resolved)
        return ports.first { $0.name == node } ?? SerialPortInfo(name: path)
    }
}
