import TetherCommandLine
import TetherConsole
import TetherDeviceSettings
import TetherPresenter

/// `tether monitor`: print notifications as they arrive.
enum MonitorCommand: Command {
    static let count = Option<Int?>(
        "--count", "-n", value: "n", help: "Stop after this many notifications.",
        parse: Parse.integer(1..., InvalidValue("Please provide a whole number, 1 or more.")))
    static let duration = Option<Duration?>(
        "--duration", "-d", value: "seconds", help: "Stop after this many seconds (decimals allowed).",
        parse: Parse.seconds)
    static let live = Flag(
        "--live",
        help: "Show a dashboard of the device, redrawn in place (text on a terminal),\n"
            + "or write its state as \"state\" records (json).")

    static let spec = CommandSpec(
        program: "tether", name: "monitor",
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
        options: ConnectionOptions.options.excluding([
            ConnectionOptions.timeout.declaration, DialectOptions.eol.declaration,
            DialectOptions.errorPattern.declaration, DialectOptions.checkErrors.declaration,
            DialectOptions.noUnsolicited.declaration, DialectOptions.promptWait.declaration,
        ]) + [HardwareOptions.noReconnect.declaration, count.declaration, duration.declaration, live.declaration],
        usage: "tether monitor (<port> | --sim) [--live] [--count <n>] [--duration <seconds>] [<options>]"
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let options = try ConnectionOptions(portOrSimulator: arguments)
        let count = arguments[Self.count]
        let duration = arguments[Self.duration]
        if arguments[Self.live],
            let flag = [ConnectionOptions.timestamps, ConnectionOptions.hex].first(where: { arguments[$0] })
        {
            throw UsageError(
                "'\(flag.declaration.key)' applies to the event log, and '--live' shows a dashboard instead")
        }
        let live = arguments[Self.live] ? try LiveScreen(format: options.format) : nil
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
