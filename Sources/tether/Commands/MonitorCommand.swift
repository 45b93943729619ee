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
        // Monitor sends nothing: the options about commands and their replies do not apply.
        options: ConnectionOptions.specs.filter {
            !["--timeout", "--eol", "--error-pattern", "--check-errors"].contains($0.key)
        } + HardwareOptions.reconnectSpecs + [
            .value("--count", "-n", name: "n", help: "Stop after this many notifications."),
            .value("--duration", "-d", name: "seconds", help: "Stop after this many seconds (decimals allowed)."),
        ],
        usage: "tether monitor (<port> | --sim) [--count <n>] [--duration <seconds>] [<options>]"
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let options = try ConnectionOptions(portOrSimulator: arguments)
        let count = try arguments.value(
            "--count", expected: "Please provide a whole number, 1 or more.", { Int($0).flatMap { $0 > 0 ? $0 : nil } })
        let duration = try arguments.duration("--duration")

        let connection = try await Connection(options)
        return await connection.runUntilStopped(
            observe: { _, state, stop in
                if let count, state.counts.notifications >= count { stop.yield(.success) }
            },
            work: { stop in
                guard let duration else { return }
                try? await Task.sleep(for: duration)
                stop.yield(.success)
            })
    }
}
