import FoundationEssentials
import Glibc
import TetherViews

/// `tether connect`: an interactive session.
enum ConnectCommand: Command {
    static let spec = CommandSpec(
        name: "connect",
        abstract: "Work with a device interactively.",
        discussion: """
            Each line you type is sent as a command; replies and notifications are shown
            as they arrive. Ctrl-D leaves (exit 0), Ctrl-C too (exit 130); the terminal
            is left as it was found. When the device goes away, commands in flight fail,
            tether waits for it to come back at the same path and reopens it; with
            --no-reconnect the session ends instead (exit 74).

            EXAMPLE:
              tether connect --sim
            """,
        arguments: [
            ArgumentSpec(
                name: "port", help: "The serial port: a device path or symlink (omit with --sim or --match).",
                isOptional: true)
        ],
        options: ConnectionOptions.specs + HardwareOptions.reconnectSpecs,
        usage: "tether connect (<port> | --sim) [<options>]"
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let options = try ConnectionOptions(portOrSimulator: arguments)
        let terminal = TerminalState.save()
        defer { terminal?.restore() }
        let connection = try await Connection(options)
        if isatty(STDIN_FILENO) == 1 && options.format == .text {
            FileSink.standardError.write("Type a command and press Enter; Ctrl-D or Ctrl-C quits.\n")
        }
        let device = connection.device
        let timeout = options.timeout
        let typesOnATerminal = isatty(STDIN_FILENO) == 1
        return await connection.runUntilStopped { stop in
            for await line in StandardInput.lines() where !line.isEmpty {
                _ = try? await device.query(line, timeout: timeout)
            }
            // A terminal that hung up also ends the input; SIGHUP may not have arrived
            // yet, so tell it from Ctrl-D by the terminal being gone.
            let hungUp = typesOnATerminal && isatty(STDIN_FILENO) == 0
            stop.yield(hungUp ? .hangUpSignal : .success)
        }
    }
}
