import Synchronization
import TetherCommandLine
import TetherConnection
import TetherConsole
import TetherDeviceSettings
import TetherModel
import TetherPresenter
import TetherViews

/// `tether monitor`: print notifications as they arrive.
enum MonitorCommand: Command {
    static let count = Option<Int?>(
        "--count", "-n", value: "n", help: "Stop after this many notifications.",
        range: .integers(atLeast: 1))
    static let duration = Option<Duration?>(
        "--duration", "-d", value: "duration", help: "Stop after this long (e.g. 90s, 1.5s, 10m).",
        range: .durations(.milliseconds(1), bare: .seconds))
    static let until = Option<LinePattern?>(
        "--until", value: "regex",
        help: "Stop at the first received line, or text without a line end (a prompt),\n"
            + "that matches this regular expression: exit 0 (75 if --count or --duration ends it first).",
        parse: DialectOptions.pattern)
    static let only = Option<LinePattern?>(
        "--only", value: "regex",
        help: "Show only the received lines (and text without a line end) that match this\n"
            + "regular expression; --count counts those. The --log file has every line.",
        parse: DialectOptions.pattern)
    static let level = Option<LogLevel?>(
        "--level", value: "level",
        help: "Show only the log lines at this level or more severe (error, warn, info,\n"
            + "debug), as their format writes it (docs/FIRMWARE.md, \"Log levels\"); lines\n"
            + "without a level are shown. The --log file has every line."
    ) { text throws(InvalidValue) in
        guard let level = LogLevel(naming: text) else {
            throw InvalidValue("Please provide one of 'error', 'warn', 'info', 'debug'.")
        }
        return level
    }
    static let live = Flag(
        "--live",
        help: "Show a dashboard of the device, redrawn in place (text on a terminal),\n"
            + "or write its state as \"state\" records (json).")

    /// Which received lines `--only` and `--level` let through; `nil` for every line.
    private static func shown(only: LinePattern?, level: LogLevel?) -> (@Sendable (ViewLine) -> Bool)? {
        guard only != nil || level != nil else { return nil }
        return { line in
            guard only?.matches(line.text) ?? true else { return false }
            guard let level, let lineLevel = line.level else { return true }
            return lineLevel <= level
        }
    }

    static let spec = CommandSpec(
        program: "tether", name: "monitor",
        abstract: "Print a device's notifications as they arrive.",
        discussion: """
            Runs until --count notifications were printed, --duration has passed, a line
            matches --until, or Ctrl-C (exit 130). When the device goes away (unplugged,
            reset, simulator stopped) monitor says so, waits for it to come back at the
            same path and goes on; with --no-reconnect it exits 74 instead.

            Text without a line end (a progress bar, a prompt) is shown once the line
            has been quiet for 100 ms: in place on a terminal, completed there when the
            line ends; to a pipe or file as it comes, the line finished when the rest
            arrives (each line once, as "tio | tee" writes it); in JSON as
            "pending_text" records (docs/JSON.md).

            With --live, a dashboard replaces the event log on the terminal: the device's
            identity, the connection and its settings, one row per reading seen in
            notifications (latest value, unit, min, max, mean, a sparkline, age), the
            last alarms and error replies, the recent exchanges and counters, redrawn
            in place at most ten times a second. With --format json, --live writes
            "state" records instead (docs/JSON.md). Text --live needs a terminal that can
            redraw in place: on anything else (a pipe, a file, TERM=dumb) it is refused
            with exit 64.

            --until REGEX ends monitor by itself (exit 0) at the first received line
            that matches, or at text without a line end that matches once the line has
            been quiet for 100 ms — a prompt such as U-Boot's "=> " or "login: " never
            gets a line end. The line that matched is shown first. With --until, reaching
            --count or --duration before a match exits 75; the device going away for good
            (--no-reconnect) exits 74, Ctrl-C 130. --only REGEX shows only the lines that
            match (the rest are still received, and logged with --log). Both are matched
            like --notify-pattern: Swift Regex syntax, anywhere in the line's text, control
            sequences removed (docs/DIALECTS.md).

            For firmware (docs/FIRMWARE.md): --elf FILE shows the function, file and
            line of each code address in a crash report (ESP-IDF, Zephyr, Cortex-M);
            --reset NAME resets the board once reading has begun, so the boot log is
            there from its first byte; --level warn hides the info and debug lines
            (lines without a level stay).

            EXAMPLES:
              tether monitor --sim --count 3
              tether monitor /dev/ttyUSB0 --until '^=> ' > boot.log
              tether monitor /dev/ttyUSB1 --only '^\\$GPRMC' --count 10
              tether monitor --sim --live
              tether monitor /dev/ttyUSB0 --reset esptool-hard-reset --elf build/app.elf
              tether monitor /dev/ttyACM0 --format json --duration 60 > log.jsonl
            """,
        arguments: [
            ArgumentSpec(
                name: "port", help: ConnectionOptions.portHelp,
                isOptional: true)
        ],
        options: [
            count.declaration, duration.declaration, until.declaration, only.declaration, level.declaration,
            live.declaration,
            ConnectionOptions.format(showing: .eventLog).declaration,
        ],
        // Monitor sends nothing: the groups about commands and their replies do not apply.
        groups: [
            SimulatorOptions.self, PortOptions.self, SerialOptions.self, DialectGroup.self, OutputOptions.self,
            ReconnectOptions.self, FirmwareOptions.self, TextOutputOptions.self, DialectTuningOptions.self,
            PacingOptions.self,
            PortControlOptions.self, LineControlOptions.self, SimulatorFaultOptions.self,
        ],
        usage:
            "tether monitor (<port> | --sim) [--live] [--count <n>] [--duration <duration>] [--until <regex>] [--only <regex>] [<options>]"
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let options = try ConnectionOptions(portOrSimulator: arguments)
        let count = arguments[Self.count]
        let duration = arguments[Self.duration]
        if arguments[Self.live],
            let flag = [("--timestamps", options.showsTimestamps), ("--hex", options.showsHex)].first(where: \.1)?.0
        {
            throw UsageError("'\(flag)' applies to the event log, and '--live' shows a dashboard instead")
        }
        let live = arguments[Self.live] ? try LiveScreen(format: options.format) : nil
        defer { live?.close() }
        let until = arguments[Self.until]
        let only = arguments[Self.only]
        let level = arguments[Self.level]
        let isShown = Self.shown(only: only, level: level)
        let connection = try await Connection(options, view: live?.view, showing: isShown)
        // Running out of --count or --duration before --until matched is not success.
        let ranOut: ExitCode = until == nil ? .success : .timeout
        let shownLines = Mutex(0)
        let isDone = Mutex(false)
        // What ends the session at this record, if anything.
        let ending: @Sendable (ViewEvent) -> ExitCode? = { event in
            switch event {
            case .notification(let line, _):
                if let until, until.matches(line.text) { return .success }
                guard let count, isShown?(line) ?? true else { return nil }
                let shown = shownLines.withLock { shown in
                    shown += 1
                    return shown
                }
                return shown >= count ? ranOut : nil
            case .pendingText(let line):
                guard let until, until.matches(line.text) else { return nil }
                return .success
            default:
                return nil
            }
        }
        // Without --count and --until no record ends the session: nothing to ask per line.
        let endsByRecord = until != nil || count != nil
        return try await connection.runUntilStopped(
            observe: { record, _, stop in
                guard endsByRecord, let end = ending(record.event) else { return }
                isDone.withLock { $0 = true }
                stop.yield(end)
            },
            until: { _ in endsByRecord && isDone.withLock { $0 } },
            work: { stop in
                guard let duration else { return }
                try? await Task.sleep(for: duration)
                stop.yield(ranOut)
            })
    }
}
