import TetherSimulator

/// The `tether-sim` command line: what the user asked for, parsed and validated, in the
/// conventions of swift-argument-parser (which cannot be a dependency here).
enum SimCommandLine: Equatable {
    /// Serve one or more simulators.
    case serve(ServeRequest)
    /// Print the built-in profiles (name, dialect, description) and exit 0.
    case listProfiles
    /// Print ``helpText`` and exit 0.
    case help
    /// Print ``versionText`` and exit 0.
    case version

    /// What to serve: how many devices, their links, seed, faults and transcripts.
    struct ServeRequest: Equatable {
        /// The `--link` paths, in order.
        var links: [String] = []
        /// `--count`, when given.
        var count: Int?
        /// `--seed`, when given.
        var seed: UInt64?
        /// `--log`, when given.
        var logPath: String?
        /// `--profile`: a built-in profile's name or a profile file's path; `nil` for the default.
        var profile: String?
        /// The fault options.
        var faults = FaultOptions()

        /// How many devices: `--count`, else one per `--link`, else one.
        var deviceCount: Int { count ?? max(1, links.count) }

        /// The seed of device `index` (from 0): `--seed` (or the default) plus `index`, so
        /// devices differ but replay alike.
        func seed(ofDevice index: Int) -> UInt64 {
            (seed ?? ProfileDevice.defaultSeed) &+ UInt64(index)
        }

        /// The link of device `index` (from 0): the `--link` of that rank, or with
        /// `--count N` and one `--link P`, `P-1` … `P-N`.
        func link(ofDevice index: Int) -> String? {
            numbered(links, index)
        }

        /// The transcript of device `index` (from 0): `--log F`, or `F-1` … `F-N` for
        /// several devices.
        func logPath(ofDevice index: Int) -> String? {
            numbered(logPath.map { [$0] } ?? [], index)
        }

        private func numbered(_ paths: [String], _ index: Int) -> String? {
            if paths.count > 1 { return paths[index] }
            guard let path = paths.first else { return nil }
            return deviceCount > 1 ? "\(path)-\(index + 1)" : path
        }
    }

    /// The program's version.
    static let versionText = "0.1.0"

    /// `USAGE:` line, also printed after an error.
    static let usage =
        "tether-sim [--profile <name|file>] [--link <path> ...] [--count <n>] [--seed <seed>] [--log <file>] [<fault options>]"

    /// The full `--help` text.
    static let helpText = """
        OVERVIEW: Simulate a serial device on a pseudo-terminal.

        Serves a device described by a profile (default: env, the ENV-1 environmental
        controller; see Simulator/README.md and docs/PROFILES.md) on a new
        pseudo-terminal until SIGINT (Ctrl-C) or SIGTERM. Prints the device path on
        stdout as 'device: <path>' and, with --link, 'link: <path>' (one pair per
        device); open that path with tether or any serial terminal. The port starts in
        the kernel's default (cooked) mode: the client must set raw mode.

        USAGE: \(usage)

        OPTIONS:
          --profile <name|file>   The device: a built-in profile's name or a profile
                                  file's path (default: \(SimulatorProfiles.defaultName)).
                                  A profile with a mistake exits 65.
          --list-profiles         List the built-in profiles and exit.
          --link <path>           Also create a symbolic link to the device at <path>
                                  (a stale link there is replaced, a live simulator's
                                  is refused; removed on exit). Repeat for several
                                  devices.
          --count <n>             Serve n devices, 1 to \(maximumCount), with serial numbers
                                  SIM0001 … SIM000n. With one --link P they are linked
                                  as P-1 … P-n.
          --seed <seed>           Seed of the simulated sensor noise and of the faults, 0
                                  to 18446744073709551615 (default: \(ProfileDevice.defaultSeed)).
                                  Device i (from 1) uses seed + i - 1.
          --log <file>            Record every byte in and out, with timestamps, in
                                  <file> (<file>-i for device i when there are several).
          --version               Show the version.
          -h, --help              Show help information.

        FAULT OPTIONS (seeded by --seed, so a failing run replays):
        \(faultHelp)

        EXAMPLES:
          tether-sim --link /tmp/ttyENV --latency 50 --jitter 20 --split 3
          tether-sim --link /tmp/ttyENV --garbage 0.2 --drop 0.1 --duplicate 0.05 --seed 7
          tether-sim --link /tmp/ttyENV --disconnect-after 5000 --reappear-after 1000 --sequence-numbers
          tether-sim --link /tmp/ttyENV --burst 1000@2000 --sequence-numbers --pace-baud 115200
          tether-sim --link /tmp/ttyENV --log /tmp/env.log
          tether-sim --count 4 --link /tmp/ttyENV     # /tmp/ttyENV-1 … /tmp/ttyENV-4

        """

    /// The most devices one process serves.
    static let maximumCount = 256

    /// The fault options in the layout of OPTIONS: help from column 27, wrapped at 80.
    private static var faultHelp: String {
        let indent = String(repeating: " ", count: 26)
        return FaultOptions.all.map { option in
            let left = "  " + option.name + (option.value.map { " <\($0)>" } ?? "")
            var lines: [String] = []
            for word in option.help.split(separator: " ") {
                if let last = lines.last, last.count + 1 + word.count <= 54 {
                    lines[lines.count - 1] = last + " " + word
                } else {
                    lines.append(String(word))
                }
            }
            let first = left.count < 24 ? left + String(repeating: " ", count: 26 - left.count) : left + "\n" + indent
            return first + lines.joined(separator: "\n" + indent)
        }.joined(separator: "\n")
    }

    /// A parse or validation error; exit 64 (`EX_USAGE`).
    struct UsageError: Error, Equatable {
        /// The message after `Error: `.
        let message: String
    }

    /// Parses the arguments after the program name.
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing or invalid value, an
    ///   unexpected argument, or options that do not go together.
    static func parse(_ arguments: [String]) throws(UsageError) -> SimCommandLine {
        var request = ServeRequest()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let (name, inlineValue) = split(argument)
            switch name {
            case "-h", "--help":
                return .help
            case "--version":
                return .version
            case "--list-profiles":
                return .listProfiles
            case "--profile":
                guard let value = inlineValue ?? remaining.popFirst(), !value.isEmpty else {
                    throw UsageError(message: "Missing value for '--profile <name|file>'")
                }
                request.profile = value
            case "--link":
                guard let value = inlineValue ?? remaining.popFirst(), !value.isEmpty else {
                    throw UsageError(message: "Missing value for '--link <path>'")
                }
                request.links.append(value)
            case "--log":
                guard let value = inlineValue ?? remaining.popFirst(), !value.isEmpty else {
                    throw UsageError(message: "Missing value for '--log <file>'")
                }
                request.logPath = value
            case "--count":
                guard let value = inlineValue ?? remaining.popFirst() else {
                    throw UsageError(message: "Missing value for '--count <n>'")
                }
                guard let count = Int(value), (1...maximumCount).contains(count) else {
                    throw UsageError(
                        message:
                            "The value '\(value)' is invalid for '--count <n>': expected a whole number from 1 to \(maximumCount)"
                    )
                }
                request.count = count
            case "--seed":
                guard let value = inlineValue ?? remaining.popFirst() else {
                    throw UsageError(message: "Missing value for '--seed <seed>'")
                }
                guard let parsed = UInt64(value) else {
                    throw UsageError(
                        message:
                            "The value '\(value)' is invalid for '--seed <seed>': expected a whole number from 0 to 18446744073709551615"
                    )
                }
                request.seed = parsed
            default:
                if let option = FaultOptions.option(named: name) {
                    var value = inlineValue
                    if let valueName = option.value, value == nil {
                        guard let next = remaining.popFirst() else {
                            throw UsageError(message: "Missing value for '\(name) <\(valueName)>'")
                        }
                        value = next
                    }
                    do throws(FaultOptions.Mistake) {
                        try request.faults.apply(option, value: value)
                    } catch {
                        throw UsageError(message: error.message)
                    }
                } else if argument.hasPrefix("-") {
                    throw UsageError(message: "Unknown option '\(argument)'")
                } else {
                    throw UsageError(message: "Unexpected argument '\(argument)'")
                }
            }
        }
        if let count = request.count, request.links.count > 1, request.links.count != count {
            throw UsageError(
                message:
                    "'--count \(count)' with \(request.links.count) '--link's: give one --link (numbered -1 … -\(count)) or one per device"
            )
        }
        do throws(FaultOptions.Mistake) {
            _ = try request.faults.plan(seed: 0)
        } catch {
            throw UsageError(message: error.message)
        }
        return .serve(request)
    }

    /// `--name=value` → (`--name`, `value`); anything else → (argument, nil).
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
            return (argument, nil)
        }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
