import TetherSimulator

/// The `tether-sim` command line: what the user asked for, parsed and validated, in the
/// conventions of swift-argument-parser (which cannot be a dependency here).
enum SimCommandLine: Equatable {
    /// Serve a simulator.
    case serve(link: String?, seed: UInt64?, profile: String?)
    /// Print the built-in profiles (name, dialect, description) and exit 0.
    case listProfiles
    /// Print ``helpText`` and exit 0.
    case help
    /// Print ``versionText`` and exit 0.
    case version

    /// The program's version.
    static let versionText = "0.1.0"

    /// `USAGE:` line, also printed after an error.
    static let usage = "tether-sim [--profile <name|file>] [--link <path>] [--seed <seed>]"

    /// The full `--help` text.
    static let helpText = """
        OVERVIEW: Simulate a serial device on a pseudo-terminal.

        Serves a device described by a profile (default: env, the ENV-1 environmental
        controller; see Simulator/README.md and docs/PROFILES.md) on a new
        pseudo-terminal until SIGINT (Ctrl-C) or SIGTERM. Prints the device path on
        stdout as 'device: <path>' and, with --link, 'link: <path>'; open that path with
        tether or any serial terminal. The port starts in the kernel's default (cooked)
        mode: the client must set raw mode.

        USAGE: \(usage)

        OPTIONS:
          --profile <name|file>   The device: a built-in profile's name or a profile
                                  file's path (default: \(SimulatorProfiles.defaultName)).
                                  A profile with a mistake exits 65.
          --list-profiles         List the built-in profiles and exit.
          --link <path>           Also create a symbolic link to the device at <path>
                                  (an old link there is replaced; removed on exit).
          --seed <seed>           Seed of the simulated sensor noise, 0 to
                                  18446744073709551615 (default: \(ProfileDevice.defaultSeed)).
          --version               Show the version.
          -h, --help              Show help information.

        """

    /// A parse or validation error; exit 64 (`EX_USAGE`).
    struct UsageError: Error, Equatable {
        /// The message after `Error: `.
        let message: String
    }

    /// Parses the arguments after the program name.
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing or invalid value, or an
    ///   unexpected argument.
    static func parse(_ arguments: [String]) throws(UsageError) -> SimCommandLine {
        var link: String?
        var seed: UInt64?
        var profile: String?
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
                profile = value
            case "--link":
                guard let value = inlineValue ?? remaining.popFirst(), !value.isEmpty else {
                    throw UsageError(message: "Missing value for '--link <path>'")
                }
                link = value
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
                seed = parsed
            default:
                if argument.hasPrefix("-") {
                    throw UsageError(message: "Unknown option '\(argument)'")
                }
                throw UsageError(message: "Unexpected argument '\(argument)'")
            }
        }
        return .serve(link: link, seed: seed, profile: profile)
    }

    /// `--name=value` → (`--name`, `value`); anything else → (argument, nil).
    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
            return (argument, nil)
        }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
