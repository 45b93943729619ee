import Foundation
import TetherPresenter
import TetherScript
import TetherViews

/// `tether run`: run a query file or a Lua script against one or more devices.
enum RunCommand: Command {
    static let spec = CommandSpec(
        name: "run",
        abstract: "Run a query file or a Lua script against devices, with expectations.",
        discussion: """
            A query file has one command per line, each optionally followed by an
            expectation: 'CMD == TEXT' (a reply line equals TEXT) or 'CMD =~ REGEX' (a
            reply line matches). Lines starting with '#' are comments. A '.lua' file
            (or --lua) is a Lua 5.4 script using 'device', 'devices.NAME', 'sleep',
            'emit' and 'check'. Give '-' to read the script from standard input.
            See docs/SCRIPTING.md for the syntax, the Lua API and the JSON records.

            Devices: '--port PATH' or '--sim' is the unnamed device ('device' in Lua);
            '--port NAME=PATH', '--port NAME=sim' or '--port NAME=sim:PROFILE' (profiles:
            \(SimulatorProfile.names.joined(separator: ", "))) add named ones ('devices.NAME').

            Exits 0 when every expectation held, 1 when one failed (or an error reply
            went unhandled), 65 for a script error (found before anything is sent when
            it is a syntax error, a bad line or an unknown device name), 66 when the
            script file cannot be read, 74 when a device disconnected, 75 when a step
            timed out and the script did not handle it.

            EXAMPLES:
              printf '*IDN? =~ ^TETHER\\n' | tether run - --sim
              tether run examples/chamber.txt --sim --format json
              tether run examples/sweep.lua --sim
              tether run examples/alarm.lua --port chamber=sim --port cooler=sim
              tether run checks.lua --port psu=/dev/ttyUSB0 --port load=/dev/ttyUSB1 --dry-run
            """,
        arguments: [
            ArgumentSpec(name: "script", help: "The query file or Lua script ('.lua'); '-' reads standard input.")
        ],
        options: [
            .value(
                "--port", "-p", name: "port",
                help:
                    "A device: PATH, or NAME=PATH, NAME=sim, NAME=sim:PROFILE for a named one.\nRepeat for several devices.",
                repeatable: true),
            .flag("--dry-run", help: "Check the script (syntax, device names) and open no port."),
            .flag("--lua", help: "Read the script as Lua whatever its name (e.g. from standard input)."),
            .value(
                "--lua-memory", name: "MiB",
                help:
                    "The most memory a Lua script may use, in MiB (1 to 65536); more is a script\nerror naming the line. (default: \(ScriptRunner.defaultLuaMemoryLimit >> 20))"
            ),
        ] + ConnectionOptions.specs,
        usage: "tether run <script> (--port <port> ... | --sim) [--dry-run] [<options>]"
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        guard let path = arguments.positionals.first else { throw UsageError("Missing expected argument '<script>'") }
        if arguments.positionals.count > 1 { throw UsageError("Unexpected argument '\(arguments.positionals[1])'") }
        let options = try ConnectionOptions(arguments, port: nil)
        let ports = try devices(arguments, simulator: options.usesSimulator ? options.simulatorProfile ?? "" : nil)
        let luaMemory = try arguments.value(
            "--lua-memory", expected: "Please provide a whole number of MiB from 1 to 65536."
        ) {
            Int($0).flatMap { (1...65536).contains($0) ? $0 << 20 : nil }
        }
        let script = try read(path, forcingLua: arguments.has("--lua"))
        if script.language == .queries, ports.count > 1 {
            throw UsageError("A query file drives one device; give one '--port' or '--sim' (or write a Lua script)")
        }
        let prepared: PreparedScript
        do {
            prepared = try PreparedScript(script, deviceNames: ports.map(\.name))
        } catch {
            throw CommandFailure(error.description, code: .scriptError)
        }
        if arguments.has("--dry-run") {
            let what = prepared.stepCount.map { "\($0) command\($0 == 1 ? "" : "s")" } ?? "Lua syntax and device names"
            FileSink.standardError.write(
                "\(script.name): ok (\(what); \(ports.count) device\(ports.count == 1 ? "" : "s"), none opened)\n")
            return .success
        }
        var opened: [OpenedDevice] = []
        do {
            for port in ports {
                opened.append(
                    try await OpenedDevice(
                        port.target, configuration: options.configuration, hardware: options.hardware,
                        dialect: options.dialect))
            }
        } catch {
            for device in opened { await device.shutdown() }
            throw error
        }
        let view: any RunView =
            options.format == .json ? JSONView() : TextView(showsTimestamps: options.showsTimestamps)
        let runner = ScriptRunner(
            devices: zip(ports, opened).map { ScriptDevice(name: $0.name, device: $1.device) }, view: view,
            defaultTimeout: options.timeout, luaMemoryLimit: luaMemory ?? ScriptRunner.defaultLuaMemoryLimit)
        let summary = await runner.run(prepared)
        for device in opened { await device.shutdown() }
        return exitCode(for: summary.outcome)
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

    /// The run's devices: with `simulator` (the `--profile`, `""` for the default),
    /// the unnamed simulator first, then each `--port` in order.
    private static func devices(_ arguments: ParsedArguments, simulator: String?) throws(UsageError) -> [NamedPort] {
        var ports = simulator.map { [NamedPort(simulatorProfile: $0.isEmpty ? nil : $0)] } ?? []
        for value in arguments.allValues("--port") { ports.append(try NamedPort(parsing: value)) }
        guard !ports.isEmpty else { throw UsageError("Missing a device: give '--port <port>' or '--sim'") }
        if ports.filter({ $0.name == nil }).count > 1 {
            throw UsageError(
                "Only one device may be unnamed ('--sim' or '--port PATH'); name the others with NAME=PATH")
        }
        var seen: Set<String> = []
        for name in ports.compactMap(\.name) where !seen.insert(name).inserted {
            throw UsageError("The device name '\(name)' is given twice")
        }
        var nodes: [String: String] = [:]
        for port in ports {
            guard case .path(let path) = port.target else { continue }
            let node = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            let label = port.name ?? "the unnamed device"
            if let other = nodes.updateValue(label, forKey: node) {
                throw UsageError("'\(other)' and '\(label)' are the same port (\(node))")
            }
        }
        return ports
    }

    /// Reads the script at `path` (`-`: standard input, named `stdin`).
    private static func read(_ path: String, forcingLua: Bool) throws(CommandFailure) -> Script {
        let name = path == "-" ? "stdin" : path
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = FileManager.default.contents(atPath: path)
        }
        guard let data else {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            let reason = !exists ? "no such file" : isFolder.boolValue ? "is a directory" : "cannot be read"
            throw CommandFailure("\(path): \(reason)", code: .portNotFound)
        }
        // A binary file given by mistake must not be sent to a device line by line.
        guard let text = String(validating: data, as: UTF8.self), !text.contains("\0") else {
            throw CommandFailure("\(name): not a text file (NUL bytes or invalid UTF-8)", code: .scriptError)
        }
        let language: Script.Language = forcingLua ? .lua : Script.language(ofFileNamed: name)
        return Script(name: name, text: text, language: language)
    }
}
