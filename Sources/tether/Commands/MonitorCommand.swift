import Foundation

/// `tether monitor`: print notifications as they arrive.
enum MonitorCommand: Command {
    static let spec = CommandSpec(
        name: "monitor",
        abstract: "Print a device's notifications as they arrive.",
        discussion: """
            Runs until --count notifications were printed, --duration has passed, or
            Ctrl-C (exit 130). When the device goes away (unplugged, reset, simulator
            stopped) monitor says so, waits for it to come back at the same path and
            goes on; with --no-reconnect it exits 74 instead.

            EXAMPLES:
              tether monitor --sim --count 3
              tether monitor /dev/ttyACM0 --format json --duration 60 > log.jsonl
            """,
        arguments: [
            ArgumentSpec(
                name: "port", help: "The serial port: a device path or symlink (omit with --sim or --match).",
                isOptional: true)
        ],
        options: ConnectionOptions.specs + HardwareOptions.reconnectSpecs + [
            .value("--count", "-n", name: "n", help: "Stop after this many notifications."),
            .value("--duration", "-d", name: "seconds", help: "Stop after this many seconds (decimals allowed)."),
        ],
        usage: "tether monitor (<port> | --sim) [--count <n>] [--duration <seconds>] [<options>]"
    )

    /// The longest `--duration` accepted, in seconds (about 31 years): longer ones
    /// would overflow `Duration`.
    static let longestSeconds = 1e9

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("Unexpected argument '\(arguments.positionals[1])'")
        }
        let options = try ConnectionOptions(arguments, port: arguments.positionals.first)
        if !options.namesPort {
            throw UsageError("Missing expected argument '<port>' (or give '--sim')")
        }
        let count = try arguments.value(
            "--count", expected: "Please provide a whole number, 1 or more.", { Int($0).flatMap { $0 > 0 ? $0 : nil } })
        let duration = try arguments.value(
            "--duration", expected: "Please provide a number of seconds greater than 0, at most 1e9.",
            { Double($0).flatMap { $0 > 0 && $0 <= Self.longestSeconds ? $0 : nil } })

        let connection = try await Connection(options)
        return await connection.runUntilStopped(
            observe: { _, state, stop in
                if let count, state.counts.notifications >= count { stop.yield(.success) }
            },
            work: { stop in
                guard let duration else { return }
                try? await Task.sleep(for: .seconds(duration))
                stop.yield(.success)
            })
    }
}
