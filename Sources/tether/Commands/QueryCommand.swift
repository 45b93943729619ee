import TetherModel

/// `tether query`: send each command, print each reply.
enum QueryCommand: Command {
    static let spec = CommandSpec(
        name: "query",
        abstract: "Send commands to a device and print each reply.",
        discussion: """
            Each <command> is sent in turn (the dialect adds the line terminator) and its
            reply printed. Notifications that arrive meanwhile are printed too.
            Exits 0 when every command got a reply, 1 if any reply was an error reply,
            75 if any timed out, 74 if the device disconnected (query never reconnects).

            EXAMPLES:
              tether query --sim '*IDN?' 'TEMP?'
              tether query /dev/ttyUSB0 --baud 9600 --format json '*IDN?'
            """,
        arguments: [
            ArgumentSpec(name: "port", help: "The serial port: a device path or symlink (omit with --sim or --match)."),
            ArgumentSpec(name: "command", help: "A command to send, e.g. '*IDN?'.", isVariadic: true),
        ],
        options: ConnectionOptions.specs,
        usage: "tether query (<port> | --sim) <command> ... [<options>]"
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        var commands = arguments.positionals
        let namesPortByOption = arguments.has("--sim") || arguments.value("--match") != nil
        let port = namesPortByOption || commands.isEmpty ? nil : commands.removeFirst()
        let options = try ConnectionOptions(arguments, port: port)
        if !options.namesPort {
            throw UsageError("Missing expected argument '<port>' (or give '--sim')")
        }
        guard !commands.isEmpty else { throw UsageError("Missing expected argument '<command> ...'") }
        let connection = try await Connection(options)
        let presenting = connection.startPresenting()
        await connection.device.start()
        var code = ExitCode.success
        for command in commands {
            do {
                let reply = try await connection.device.query(command, timeout: options.timeout)
                if reply.isError { code = max(code, .expectationFailed) }
            } catch {
                code = max(code, Self.exitCode(for: error))
            }
        }
        await connection.shutdown()
        _ = await presenting.value
        return code
    }

    /// The exit code for a request that failed.
    static func exitCode(for failure: RequestFailure) -> ExitCode {
        switch failure {
        case .timedOut: .timeout
        case .disconnected, .notSent: .ioError
        }
    }
}
