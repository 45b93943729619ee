import FoundationEssentials
import Glibc
import TetherCommandLine
import TetherConnection
import TetherDeviceSettings
import TetherLibC
import TetherModel
import TetherPresenter
import TetherScript
import TetherSerial
import TetherViews

/// `tether run`: run a query file or a Lua script against one or more devices.
enum RunCommand: Command {
    static let port = Option<[String]>(
        "--port", "-p", value: "port",
        help: """
            A device: PATH (or rfc2217://HOST:PORT, tcp://HOST:PORT), or NAME=PATH,
            NAME=sim, NAME=sim:PROFILE for a named one,
            then its own settings: ,KEY=VALUE… (e.g. ,dialect=at,baud=9600 or
            ,device=FILE). Repeat for several devices.
            """, each: Parse.text)
    static let dryRun = Flag("--dry-run", help: "Check the script (syntax, device names) and open no port.")
    static let lua = Flag("--lua", help: "Read the script as Lua whatever its name (e.g. from standard input).")
    static let luaMemory = Option<Int>(
        "--lua-memory", value: "MiB",
        help: "The most memory a Lua script may use, in MiB; more is a script error naming\nthe line.",
        default: ScriptRunner.defaultLuaMemoryLimit >> 20, range: .integers(1...65536, "MiB"))

    static let junit = Option<String?>(
        "--junit", value: "file",
        help: """
            Also write the checks as a JUnit XML report to this file (replaced), for CI
            (Jenkins, GitLab, GitHub Actions), beside the output --format chooses.
            """, parse: Parse.nonEmpty(InvalidValue("Please provide a path.")))

    static let spec = CommandSpec(
        program: "tether", name: "run",
        abstract: "Run a query file or a Lua script against devices, with expectations.",
        discussion: """
            A query file has one command per line, each optionally followed by an
            expectation: 'CMD == TEXT' (a reply line equals TEXT) or 'CMD =~ REGEX' (a
            reply line matches). Lines starting with '#' are comments. A '.lua' file
            (or --lua) is a Lua 5.4 script using 'device', 'devices.NAME', 'sleep',
            'emit' and 'check'. Give '-' to read the script from standard input.
            See docs/SCRIPTING.md for the syntax, the Lua API and the JSON records.

            Devices: <port>, '--port PATH' or '--sim' is the unnamed device ('device' in Lua);
            '--port NAME=PATH', '--port NAME=sim' or '--port NAME=sim:PROFILE' (profiles:
            \(SimulatorProfile.names.joined(separator: ", "))) add named ones ('devices.NAME').
            The serial and dialect options apply to every device; a port's own settings
            follow it after commas, as KEY=VALUE with an option's name as KEY, or
            device=FILE for a device description file (docs/DIALECTS.md):
              --port modem=/dev/ttyUSB1,dialect=at,baud=9600
              --port env=/dev/ttyUSB0,device=env-sensor.json

            Exits 0 when every expectation held, 1 when one failed (or an error reply
            went unhandled), 65 for a script error (found before anything is sent when
            it is a syntax error, a bad line or an unknown device name), 66 when the
            script file cannot be read, 74 when a device disconnected, 75 when a step
            timed out and the script did not handle it.

            A tcp:// or rfc2217:// port that disconnects is reopened while the script goes
            on (docs/SCRIPTING.md); with --no-reconnect the run exits 74.

            For CI: '--junit FILE' also writes a JUnit XML report, '--format tap' prints
            TAP (one test point per check; prove and TAP harnesses read it).

            EXAMPLES:
              printf '*IDN? =~ ^TETHER\\n' | tether run - --sim
              tether run examples/chamber.txt --sim --format json
              tether run examples/sweep.lua --sim
              tether run /dev/ttyUSB0 examples/chamber.txt
              tether run examples/chamber.txt --sim --junit results.xml
              prove --exec 'tether run --sim --format tap' examples/chamber.txt
              tether run examples/alarm.lua --port chamber=sim --port cooler=sim
              tether run checks.lua --port psu=/dev/ttyUSB0 --port load=/dev/ttyUSB1 --dry-run
            """,
        arguments: [
            ArgumentSpec(
                name: "port", help: ConnectionOptions.portHelp + "\nThe unnamed device, as '--port PATH'.",
                isOptional: true),
            ArgumentSpec(name: "script", help: "The query file or Lua script ('.lua'); '-' reads standard input."),
        ],
        options: [
            port.declaration, dryRun.declaration, lua.declaration, luaMemory.declaration, junit.declaration,
            ConnectionOptions.format(showing: .run).declaration,
        ],
        groups: ConnectionOptions.sendingGroups(reconnects: true),
        usage: "tether run [<port>] <script> [--port <port> ... | --sim] [--dry-run] [<options>]"
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let (port, path) = try portAndScript(arguments.positionals)
        guard !path.isEmpty else {
            throw UsageError("The script path is empty; give a query file, a Lua script or '-' for standard input")
        }
        let ports = try devices(arguments, port: port)
        var options = try ConnectionOptions(
            arguments, port: nil, simulatesNamedPorts: ports.contains { $0.target.isSimulator })
        if options.showsHex { throw UsageError("'--hex' does not apply to run: its records have no hex rendering") }
        // A run waits for a port on another machine to come back; a local port going
        // away stops the script (docs/SCRIPTING.md).
        options.hardware.reconnection = options.hardware.reconnection.remoteOnly
        let shown = try options.view(.run)
        let log = try options.logFile(showing: .run)
        let report = try arguments[Self.junit].map { path throws(CommandFailure) in
            try LogFile(path: path, format: .junit, showing: .run, replaces: true, named: "JUnit report")
        }
        // The files beside the terminal's view: what they get also when the run fails early.
        let files = [log, report].compactMap { $0 }
        let view: any RunView = files.isEmpty ? shown : FanOutView([shown] + files.map(\.view))
        let prepared: PreparedScript
        do {
            let script = try Script.read(path, forcingLua: arguments[Self.lua])
            if script.language == .queries, ports.count > 1 {
                throw UsageError("A query file drives one device; give one '--port' or '--sim' (or write a Lua script)")
            }
            prepared = try PreparedScript(script, deviceNames: ports.map(\.name))
            if prepared.stepCount == 0 {
                throw ScriptError(at: nil, "\(script.name): no commands (only comments and blank lines)")
            }
        } catch let error as ScriptError {
            let problem = ScriptProblem(location: error.location, message: error.description)
            render(.scriptFailed(problem), on: shown, format: options.format)
            for file in files { render(.scriptFailed(problem), on: file.view, format: file.format) }
            throw CommandFailure(error.description, code: .scriptError)
        } catch let error as Script.Unreadable {
            throw CommandFailure(error.description, code: .portNotFound)
        }
        if arguments[Self.dryRun] {
            let script = prepared.script
            let dryRun = DryRun(script: script.name, commands: prepared.stepCount, devices: ports.count)
            render(.checkedOnly(dryRun), on: shown, format: options.format)
            for file in files { render(.checkedOnly(dryRun), on: file.view, format: file.format) }
            for file in files { try file.check() }
            return .success
        }
        let settings = try ports.map { port throws(UsageError) in
            try DeviceSettings(arguments, below: port.namedSettings + options.settingsBelow, above: port.settings)
        }
        let firmware = try settings.map { settings throws(CommandFailure) in try FirmwareFile.symbols(settings.elf) }
        // Ended by a signal, a run exits at once with its code (docs/SCRIPTING.md): by
        // exit(3), not by the signal's default action, so the lock files of its ports go
        // too (UUCPLockFile's exit handler).
        return try await SignalTrap.during(onSignal: { exit(SignalTrap.exitCode(for: $0).rawValue) }) {
            // What JSON and the log get when a port cannot be opened (text has the error).
            let records = FanOutView((options.format.isForPrograms ? [shown] : []) + files.map(\.view))
            var opened: [OpenedDevice] = []
            do {
                for ((port, settings), symbols) in zip(zip(ports, settings), firmware) {
                    opened.append(
                        try await OpenedDevice(
                            port.target, settings: settings, hardware: options.hardware, symbols: symbols,
                            faults: options.simulatorFaults,
                            waiting: { Presenter(port: $0, device: port.name).presentWaiting(for: $0, to: view) },
                            refused: { name, events in
                                var presenter = Presenter(port: name, device: port.name)
                                presenter.present(events, to: records)
                            }))
                }
            } catch {
                for device in opened { await device.shutdown() }
                var presenter = RunPresenter(devices: [])
                records.render(presenter.finish(outcome: .deviceError, unhandled: 0, duration: .zero, at: Date()))
                throw error
            }
            let runner = ScriptRunner(
                devices: zip(ports, opened).map {
                    ScriptDevice(name: $0.name, device: $1.device, facts: $1.facts, reconnects: $1.reconnects)
                },
                view: view,
                defaultTimeout: options.timeout, luaMemoryLimit: arguments[Self.luaMemory] << 20)
            let devices = opened.map(\.device)
            for file in files {
                file.whenWriteFails { for device in devices { device.stop(reason: LogFileStop.reason) } }
            }
            let summary = await runner.run(prepared)
            for device in opened { await device.shutdown() }
            for file in files { try file.check() }
            return exitCode(for: summary.outcome)
        }.result
    }

    /// Renders `event` of a run that ends before it starts: a dry run's verdict, or a
    /// script error found while checking (text: the error is the command's message).
    /// JSON also gets the summary that always ends a run's records, with the outcome
    /// `script_error` after a script error, else `passed`.
    private static func render(_ event: RunEvent, on view: any RunView, format: OutputFormat) {
        var presenter = RunPresenter(devices: [])
        if !format.isForPrograms {
            if case .checkedOnly = event { view.render(presenter.handle(event, at: Date())) }
            return
        }
        view.render(presenter.handle(event, at: Date()))
        let outcome: RunSummary.Outcome = if case .scriptFailed = event { .scriptError } else { .passed }
        view.render(presenter.finish(outcome: outcome, unhandled: 0, duration: .zero, at: Date()))
    }

    /// The exit code of a run's outcome.
    static func exitCode(for outcome: RunSummary.Outcome) -> ExitCode {
        switch outcome {
        case .passed: .success
        case .failed: .expectationFailed
        case .timedOut: .timeout
        case .scriptError: .scriptError
        case .deviceError: .ioError
        }
    }

    /// The port given as an argument, if any, and the script: `run PORT SCRIPT` as the
    /// other commands take their port first, `run SCRIPT PORT` too when only the
    /// second is a port (``Tether/isPort(_:)``), or `run SCRIPT` with `--port` or `--sim`.
    ///
    /// - Throws: ``UsageError`` for no script, or arguments beyond a port and a script.
    static func portAndScript(_ positionals: [String]) throws(UsageError) -> (port: String?, script: String) {
        switch positionals.count {
        case 0: throw UsageError("Missing expected argument '<script>'")
        case 1: return (nil, positionals[0])
        case 2 where Tether.isPort(positionals[0]): return (positionals[0], positionals[1])
        case 2 where Tether.isPort(positionals[1]): return (positionals[1], positionals[0])
        default:
            let extra = positionals[positionals.count == 2 ? 1 : 2]
            throw UsageError(
                "Unexpected argument \(Quoted(extra)): give 'tether run [<port>] <script>' (a port is a serial device, "
                    + "a /dev/ path, tcp:// or rfc2217://), or '--port' for each device")
        }
    }

    /// The run's devices: with `--sim`, the unnamed simulator (running `--profile`)
    /// first, then the `port` argument and each `--port` in order.
    private static func devices(_ arguments: ParsedArguments, port: String?) throws(UsageError) -> [NamedPort] {
        let simulator = arguments[SimulatorOptions.self]
        let profile = simulator.profile.flatMap { $0.isEmpty ? nil : $0 }
        var ports = simulator.sim ? [NamedPort(simulatorProfile: profile)] : []
        if let port { ports.append(try NamedPort(parsing: port)) }
        for value in arguments[Self.port] { ports.append(try NamedPort(parsing: value)) }
        guard !ports.isEmpty else { throw UsageError("Missing a device: give <port>, '--port <port>' or '--sim'") }
        if ports.filter({ $0.name == nil }).count > 1 {
            throw UsageError(
                "Only one device may be unnamed ('--sim' or '--port PATH'); name the others with NAME=PATH")
        }
        var seen: Set<String> = []
        for name in ports.compactMap(\.name) where !seen.insert(name).inserted {
            throw UsageError("The device name \(Quoted(name)) is given twice")
        }
        var nodes: [String: String] = [:]
        for port in ports {
            guard case .port(.device(let path)) = port.target else { continue }
            let node = FileSystem.resolvingSymbolicLinks(path)
            let label = port.name ?? "the unnamed device"
            if let other = nodes.updateValue(label, forKey: node) {
                throw UsageError("'\(other)' and '\(label)' are the same port (\(node))")
            }
        }
        return ports
    }
}
