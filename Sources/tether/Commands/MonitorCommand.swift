import FoundationEssentials
import TetherPresenter

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

            Text without a line end (a progress bar, a prompt) is shown once the line
            has been quiet for 100 ms: in place on a terminal, completed there when the
            line ends; elsewhere as a line ending in "[pending]"; in JSON as
            "pending_text" records (docs/JSON.md).

            With --live, a dashboard replaces the event log on the terminal: the device's
            identity, the connection and its settings, one row per reading seen in
            notifications (latest value, unit, min, max, mean, a sparkline, age), the
            last alarms and error replies, the recent exchanges and counters, redrawn
            in place at most ten times a second. With --format json, --live writes
            "state" records instead (docs/JSON.md). Text --live needs a terminal that can
            redraw in place: on anything else (a pipe, a file, TERM=dumb) it is refused
            with exit 64.

            EXAMPLES:
              tether monitor --sim --count 3
              tether monitor --sim --live
              tether monitor /dev/ttyACM0 --format json --duration 60 > log.jsonl
            """,
        arguments: [
            ArgumentSpec(
                name: "port", help: ConnectionOptions.portHelp,
                isOptional: true)
        ],
        // Monitor sends nothing: the options about commands and their replies do not apply.
        options: ConnectionOptions.specs.filter {
            !["--timeout", "--eol", "--error-pattern", "--check-errors", "--no-unsolicited"].contains($0.key)
        } + HardwareOptions.reconnectSpecs + [
            .value("--count", "-n", name: "n", help: "Stop after this many notifications."),
            .value("--duration", "-d", name: "seconds", help: "Stop after this many seconds (decimals allowed)."),
            .flag(
                "--live",
                help: "Show a dashboard of the device, redrawn in place (text on a terminal),\n"
                    + "or write its state as \"state\" records (json)."),
        ],
        usage: "tether monitor (<port> | --sim) [--live] [--count <n>] [--duration <seconds>] [<options>]"
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let options = try ConnectionOptions(portOrSimulator: arguments)
        let count = try arguments.value(
            "--count", expected: "Please provide a whole number, 1 or more.", { Int($0).flatMap { $0 > 0 ? $0 : nil } })
        let duration = try arguments.duration("--duration")

        if arguments.has("--live"), let flag = ["--timestamps", "--hex"].first(where: arguments.has) {
            throw UsageError("'\(flag)' applies to the event log, and '--live' shows a dashboard instead")
        }
        let live = arguments.has("--live") ? try LiveScreen(format: options.format) : nil
        defer { live?.close() }
        let connection = try await Connection(options, view: live?.view)
        return try await connection.runUntilStopped(
            until: { state in count.map { state.counts.notifications >= $0 } ?? false },
            work: { stop in
                guard let duration else { return }
                try? await Task.sleep(for: duration)
                stop.yield(.success)
            })
    }
}
