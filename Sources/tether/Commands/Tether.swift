import Glibc
import TetherCommandLine
import TetherConnection
import TetherDeviceSettings
import TetherLibC
import TetherSerial
import TetherViews

/// The `tether` command: dispatches to subcommands and turns failures into messages
/// and exit codes.
enum Tether {
    /// Every subcommand, in help order.
    static var commands: [any Command.Type] {
        [
            QueryCommand.self, RunCommand.self, MonitorCommand.self, ConnectCommand.self, ListCommand.self,
            SendCommand.self, ReceiveCommand.self, LinesCommand.self, ReportCommand.self, UdevRuleCommand.self,
            CompletionCommand.self,
        ]
    }

    static let versionFlag = Flag("--version", help: "Show the version and the commit it was built from.")
    /// Not in `--help`: prints tether(1), for scripts/install and scripts/deb.
    static let generateManFlag = "--generate-man"

    static let spec = CommandSpec(
        program: "tether",
        abstract: "Control embedded devices over a serial port.",
        discussion: """
            Query a device, watch its notifications, or work with it interactively, over
            a real serial port or the built-in simulator (--sim).

            EXAMPLES:
              tether query --sim '*IDN?'
              tether run checks.txt --sim
              tether monitor /dev/ttyUSB0 --baud 9600 --count 10
              tether connect /dev/serial/by-id/usb-FTDI_FT232R_A1B2C3-if00-port0
              tether /dev/ttyUSB0                        (the same as 'tether connect /dev/ttyUSB0')
              t=$(tether query /dev/ttyUSB0 --value 'TEMP?')   (shell scripts: docs/SCRIPTS.md)
              tether send /dev/ttyUSB0 u-boot.img        (YMODEM, after 'loady')

            Durations are written 500ms, 3s, 1.5s, .5s, 2m or 1h, or added up, 1m30s; a
            bare number is in the option's own unit, which its help names.
            'tether <subcommand> --help' shows its common options, '--help-all' every one.

            EXIT CODES:
              0 success, 1 error reply or failed expectation, 64 usage error,
              65 script error, 66 port not found, 69 port unavailable (not a serial
              port, permission denied, busy), 73 --log file cannot be opened,
              74 I/O error or disconnected, 75 timeout, 76 a file transfer failed on
              the line, 78 a serial setting not applied (--strict-settings),
              79 the --elf file cannot be read, 129/130/131/143 ended by
              SIGHUP/SIGINT/SIGQUIT (Ctrl-\\)/SIGTERM, 134 ended by a SIGABRT sent
              from another process, 141 output closed early (SIGPIPE).
            """,
        options: [versionFlag.declaration],
        usage: "tether <subcommand> [<arguments>] [<options>] | tether <port> [<options>]"
    )

    /// What the command line asks for: an answer already given, or a command to run.
    enum Start {
        /// Help, the version, the man page or a usage error: written, with this exit code.
        case answered(ExitCode)
        /// A subcommand and its parsed arguments, for ``run(_:_:)``.
        case run(any Command.Type, ParsedArguments)
    }

    /// Reads the command line `arguments` (without the program name) and answers what
    /// needs no device — help, `--version`, the man page, a usage error — at once, on
    /// the calling thread: no concurrency runtime or thread is started for them
    /// (`main.swift`), so `tether --version` costs a process start and a write.
    static func start(_ arguments: [String]) -> Start {
        let errors = FileSink.standardError
        SerialPort.setLockFileWarningHandler { errors.write("Warning: \($0)\n") }
        guard let first = arguments.first else {
            errors.write(HelpFormatter.help(spec, subcommands: commands.map { $0.spec }))
            return .answered(.usage)
        }
        switch first {
        case "-h", "--help", HelpFormatter.helpAll:
            FileSink.standardOutput.write(HelpFormatter.help(spec, subcommands: commands.map { $0.spec }))
            return .answered(.success)
        case versionFlag.declaration.key:
            FileSink.standardOutput.write(Version.text(program: "tether", commit: buildCommit) + "\n")
            return .answered(.success)
        case generateManFlag where arguments.count == 1:
            FileSink.standardOutput.write(
                ManPage.render(
                    spec, subcommands: commands.map { $0.spec }, version: "tether \(Version.number)",
                    seeAlso: ["tether-sim"]))
            return .answered(.success)
        case "help":
            guard let name = arguments.dropFirst().first else {
                FileSink.standardOutput.write(HelpFormatter.help(spec, subcommands: commands.map { $0.spec }))
                return .answered(.success)
            }
            guard let command = commands.first(where: { $0.spec.name == name }) else {
                return .answered(fail(UsageError("Unknown subcommand \(Quoted(name))."), spec: spec))
            }
            FileSink.standardOutput.write(HelpFormatter.help(command.spec))
            return .answered(.success)
        default:
            break
        }
        let command: any Command.Type
        let rest: [String]
        if let named = commands.first(where: { $0.spec.name == first }) {
            command = named
            rest = Array(arguments.dropFirst())
        } else if isPort(first) || first.hasPrefix("-") && portFollowsOptions(arguments) {
            // tio's habit: `tether /dev/ttyUSB0` is `tether connect /dev/ttyUSB0`, and
            // so is `tether --baud 9600 /dev/ttyUSB0`.
            command = ConnectCommand.self
            rest = arguments
        } else if first.hasPrefix("-") {
            return .answered(fail(optionsFirst(arguments), spec: spec))
        } else {
            return .answered(fail(unknownSubcommand(first), spec: spec))
        }
        if ParsedArguments.asksForHelp(rest) {
            let showsAll = ParsedArguments.asksForAllHelp(rest)
            FileSink.standardOutput.write(HelpFormatter.help(command.spec, showsAll: showsAll))
            return .answered(.success)
        }
        do throws(UsageError) {
            let parsed = try ParsedArguments(rest, spec: parsingSpec(command.spec))
            for warning in parsed.warnings { errors.write("Warning: \(warning)\n") }
            return .run(command, parsed)
        } catch {
            return .answered(fail(error, spec: command.spec))
        }
    }

    /// Whether a first argument that is no subcommand is a port, which `connect` opens
    /// (as tio takes one): a `/dev/` path (there or not: `connect` says it is missing),
    /// a `tcp://` or `rfc2217://` address, a character device elsewhere (a link to a pty),
    /// or a named device of the configuration (docs/CONFIG.md; tio's `tio NAME`).
    static func isPort(_ argument: String) -> Bool {
        argument.hasPrefix("/dev/") || argument.hasPrefix("tcp://") || argument.hasPrefix("rfc2217://")
            || FileSystem.isCharacterDevice(atPath: argument)
            || (NamedDevices.mayName(argument) && (try? ConnectionOptions.namedDevice(argument)) != nil)
    }

    /// Whether `arguments`, which begin with an option, are `connect`'s with its port
    /// among them (`tether --timeout 5s /dev/ttyUSB0`, `tether --sim`): its first
    /// argument is a port (or `--sim`/`--match` name it), or, when they are not
    /// `connect`'s (a bad value), one is a port and none is a subcommand.
    static func portFollowsOptions(_ arguments: [String]) -> Bool {
        let arguments = withoutHelp(arguments)
        if let parsed = try? ParsedArguments(arguments, spec: parsingSpec(ConnectCommand.spec)) {
            guard let first = parsed.positionals.first else { return ConnectionOptions.namesPortByOption(parsed) }
            return isPort(first)
        }
        return arguments.contains(where: isPort)
            && !arguments.contains { name in commands.contains { $0.spec.name == name } }
    }

    /// `arguments` without `-h`, `--help` and `--help-all`, which the parser does not
    /// take (``start(_:)`` answers them once the command is known).
    private static func withoutHelp(_ arguments: [String]) -> [String] {
        arguments.filter { !ParsedArguments.asksForHelp([$0]) }
    }

    /// Options before the subcommand (`tether --timeout 5s query …`), or before no port:
    /// the form that works, with the options after the subcommand; for options that
    /// are not `connect`'s, `connect`'s parse error.
    static func optionsFirst(_ arguments: [String]) -> UsageError {
        guard let index = arguments.firstIndex(where: { name in commands.contains { $0.spec.name == name } }) else {
            // Not connect's (`--bogus`, a bad value): what is wrong with them.
            do throws(UsageError) {
                _ = try ParsedArguments(withoutHelp(arguments), spec: parsingSpec(ConnectCommand.spec))
            } catch {
                return error
            }
            return UsageError(
                "\(Quoted(arguments[0])) before a subcommand or a port: options follow them, as in "
                    + "'tether connect <port> \(arguments[0]) …' or 'tether query <port> <command> \(arguments[0]) …'")
        }
        let form = ["tether", arguments[index]] + arguments[(index + 1)...] + arguments[..<index]
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,@+")
        let words = form.map { word in
            !word.isEmpty && word.allSatisfy(plain.contains) ? word : "'" + word.replacing("'", with: "'\\''") + "'"
        }
        return UsageError("Options follow the subcommand: \(words.joined(separator: " "))")
    }

    /// `Unknown subcommand 'qeury'. Did you mean 'query'?`; for a file that is there
    /// (and no port), `Did you mean 'tether run FILE'?`; for what looks like a path (it
    /// holds a `/`) and is not there, `Did you mean 'tether connect PATH'?`.
    static func unknownSubcommand(_ name: String) -> UsageError {
        let message = "Unknown subcommand \(Quoted(name))."
        switch FileSystem.kind(atPath: name) {
        case .other:
            return UsageError(message + " Did you mean \(Quoted("tether run " + name))? (it is a file, not a port)")
        case nil where name.contains("/"):
            return UsageError(message + " Did you mean \(Quoted("tether connect " + name))? (no such port yet)")
        default:
            break
        }
        let suggestion = Suggestion.nearest(to: name, among: commands.map { $0.spec.name })
        return UsageError(message + (suggestion.map { " Did you mean '\($0)'?" } ?? ""))
    }

    /// Runs `command` with its `parsed` arguments; its failures become messages on
    /// standard error and the exit code they name.
    static func run(_ command: any Command.Type, _ parsed: ParsedArguments) async -> ExitCode {
        do {
            return try await command.run(parsed)
        } catch let error as UsageError {
            return fail(error, spec: command.spec)
        } catch let failure as CommandFailure {
            if failure.showsUsage { return fail(UsageError(failure.message), spec: command.spec) }
            report(failure.message, details: failure.details)
            return failure.code
        } catch {
            report("\(error)")
            return .ioError
        }
    }

    /// Writes `Error: MESSAGE` and each of `details` on a line of its own to standard
    /// error, with every control character escaped (`ByteEscaping`, backslashes kept):
    /// a message quotes what the user gave (`Unknown option '--x\e]0;T\a'`), and an
    /// argument holding ESC or a line break must neither drive the terminal nor make
    /// the error two lines.
    private static func report(_ message: String, details: [String] = []) {
        let lines = ["Error: " + message] + details
        FileSink.standardError.write(
            lines.map { ByteEscaping.escaped(Array($0.utf8), escapesBackslash: false) + "\n" }.joined())
    }

    /// Refuses a command line with an argument that is not valid UTF-8: Swift would
    /// repair it with U+FFFD, and a command would reach the device with other bytes
    /// than typed. Prints the error and returns `.usage`, or returns `nil`.
    static func refuseInvalidUTF8(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, count: Int) -> ExitCode? {
        for index in 1..<max(1, count) {
            guard let argument = argv[index], String(validatingCString: argument) == nil else { continue }
            let bytes = UnsafeBufferPointer(start: argument, count: strlen(argument)).map { UInt8(bitPattern: $0) }
            return fail(
                UsageError(
                    "The argument \(Quoted(bytes: bytes)) is not valid UTF-8; port paths and commands must be UTF-8 text"
                ),
                spec: spec)
        }
        return nil
    }

    /// `spec` with the message for `--port` on a command whose port is an argument.
    static func parsingSpec(_ spec: CommandSpec) -> CommandSpec {
        guard spec.arguments.contains(where: { $0.name == "port" }) else { return spec }
        var spec = spec
        spec.unknownOptionMessages["--port"] =
            "Unknown option '--port'. The port is an argument here: 'tether \(spec.name) <port> …' (or '--sim')"
        return spec
    }

    private static func fail(_ error: UsageError, spec: CommandSpec) -> ExitCode {
        report("\(error.message) (see '\(spec.commandName) --help')")
        return .usage
    }
}
