import TetherCommandLine
import TetherLibC
import TetherSimulator

/// The `tether-sim` command line: what the user asked for, parsed and validated by the
/// options declared here and ``FaultOptions``.
enum SimCommandLine {
    /// Serve one or more simulators.
    case serve(ServeRequest)
    /// Print the built-in profiles (name, dialect, description) and exit 0.
    case listProfiles
    /// Print the help generated from ``spec`` and exit 0.
    case help
    /// Print ``versionText`` and exit 0.
    case version
    /// Print a document generated from ``spec`` and exit 0 (hidden options, for
    /// scripts/install and scripts/deb).
    case generate(Document)

    /// What the hidden options generate.
    enum Document: Equatable {
        /// tether-sim(1): `--generate-man`.
        case manPage
        /// The completion script for a shell: `--generate-completion <shell>`.
        case completion(Shell)
    }

    /// What to serve: how many devices, their links, seed, faults and transcripts.
    struct ServeRequest {
        /// The `--link` paths, in order.
        var links: [String]
        /// `--count`, when given.
        var count: Int?
        /// `--seed`: the first device's.
        var seed: UInt64
        /// `--log`, when given.
        var logPath: String?
        /// `--profile`: a built-in profile's name or a profile file's path; `nil` for the default.
        var profile: String?
        /// The fault options' plan, before it is seeded per device.
        var faults: FaultPlan
        /// `--board`: a simulated board instead of a profile (``SimulatedBoard``).
        var board: SimulatedBoard?

        /// How many devices: `--count`, else one per `--link`, else one.
        var deviceCount: Int { count ?? max(1, links.count) }

        /// The seed of device `index` (from 0): `--seed` plus `index`, so devices differ
        /// but replay alike.
        func seed(ofDevice index: Int) -> UInt64 { seed &+ UInt64(index) }

        /// The faults of device `index` (from 0), seeded by ``seed(ofDevice:)``.
        func faults(ofDevice index: Int) -> FaultPlan {
            var plan = faults
            plan.seed = seed(ofDevice: index)
            return plan
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

    /// `--version`'s line, e.g. `tether-sim 0.1.0 (19fedcb)`.
    static var versionText: String { Version.text(program: "tether-sim", commit: buildCommit) }

    /// The most devices one process serves.
    static let maximumCount = 256

    static let profile = Option<String?>(
        "--profile", value: "name|file",
        help: "The device: a built-in profile's name or a profile\nfile's path. A profile with a mistake exits 65.",
        defaultHelp: SimulatorProfiles.defaultName, choices: SimulatorProfiles.builtInNames
    ) { text throws(InvalidValue) in
        // An unknown name is a usage error (64), as for `tether --sim --profile`.
        guard !text.isEmpty, SimulatorProfiles.canName(text) else {
            let names = SimulatorProfiles.builtInNames.joined(separator: ", ")
            throw .expected("a built-in profile's name (\(names)) or a file's path")
        }
        return text
    }
    static let board = Option<SimulatedBoard?>(
        "--board", value: "name",
        help: """
            Serve a board that reacts to DTR, RTS and the baud rate
            instead of a profile: esp32 (enters its ROM loader on
            esptool's reset), ipr-modem (the at-modem profile,
            switching its rate after AT+IPR=<rate>).
            """,
        parse: Parse.choice(SimulatedBoard.self))
    static let listProfilesFlag = Flag("--list-profiles", help: "List the built-in profiles and exit.")
    static let link = Option<[String]>(
        "--link", value: "path",
        help: """
            Also create a symbolic link to the device at <path>
            (a stale link there is replaced, a live simulator's
            is refused; removed on exit). Repeat for several
            devices.
            """, each: Parse.nonEmpty(.expected("a path")))
    static let count = Option<Int?>(
        "--count", value: "n",
        help: """
            Serve n devices, with serial numbers SIM0001 … SIM000n.
            With one --link P they are linked as P-1 … P-n.
            """, range: .integers(1...maximumCount))
    static let seed = Option<UInt64>(
        "--seed", value: "seed",
        help: """
            Seed of the simulated sensor noise and of the faults, 0
            to \(UInt64.max). Device i (from 1) uses seed + i - 1.
            """, default: ProfileDevice.defaultSeed
    ) { text throws(InvalidValue) in
        guard let seed = UInt64(text) else { throw .expected("a whole number from 0 to \(UInt64.max)") }
        return seed
    }
    static let log = Option<String?>(
        "--log", value: "file",
        help:
            "Record every byte in and out, with timestamps, in\n<file> (<file>-i for device i when there are several).",
        parse: Parse.nonEmpty(.expected("a path")))
    static let versionFlag = Flag("--version", help: "Show the version and the commit it was built from.")

    /// The command line's shape, for parsing and `--help`.
    static let spec = CommandSpec(
        program: "tether-sim", abstract: "Simulate a serial device on a pseudo-terminal.",
        discussion: """
            Serves a device described by a profile (default: env, the ENV-1 environmental
            controller; see Simulator/README.md and docs/PROFILES.md) on a new
            pseudo-terminal until a signal (Ctrl-C, SIGTERM…). Prints the device path on
            stdout as 'device: <path>' and, with --link, 'link: <path>' (one pair per
            device); open that path with tether or any serial terminal. The port starts in
            the kernel's default (cooked) mode: the client must set raw mode.

            EXIT CODES:
              0 every device gone for good (a disconnect fault), 64 usage error,
              65 profile with a mistake, 69 a pty, link or log cannot be created,
              74 standard output cannot be written, 129/130/131/141/143 ended by
              SIGHUP/SIGINT/SIGQUIT/SIGPIPE/SIGTERM. Links are removed on every way
              out but SIGKILL.
            """,
        options: [
            profile.declaration, board.declaration, listProfilesFlag.declaration, link.declaration, count.declaration,
            seed.declaration, log.declaration, versionFlag.declaration,
        ],
        sections: [
            OptionSection(
                title: "FAULT OPTIONS (seeded by --seed, so a failing run replays)", options: FaultOptions.all)
        ],
        usage:
            "tether-sim [--profile <name|file>] [--link <path> ...] [--count <n>] [--seed <seed>] [--log <file>] [<fault options>]",
        epilogue: """
            EXAMPLES:
              tether-sim --link /tmp/ttyENV --latency 50 --jitter 20 --split 3
              tether-sim --link /tmp/ttyENV --garbage 0.2 --drop 0.1 --duplicate 0.05 --seed 7
              tether-sim --link /tmp/ttyENV --disconnect-after 5000 --reappear-after 1000 --sequence-numbers
              tether-sim --link /tmp/ttyENV --burst 1000@2000 --sequence-numbers --pace-baud 115200
              tether-sim --link /tmp/ttyENV --log /tmp/env.log
              tether-sim --count 4 --link /tmp/ttyENV     # /tmp/ttyENV-1 … /tmp/ttyENV-4
            """)

    /// Parses the arguments after the program name.
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing or invalid value, an
    ///   unexpected argument, or options that do not go together.
    static func parse(_ arguments: [String]) throws(UsageError) -> SimCommandLine {
        if arguments == ["--generate-man"] { return .generate(.manPage) }
        if arguments.count == 2, arguments[0] == "--generate-completion" {
            guard let shell = Shell(rawValue: arguments[1]) else {
                throw UsageError(
                    "Unknown shell \(Quoted(arguments[1])); expected one of \(Shell.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))"
                )
            }
            return .generate(.completion(shell))
        }
        if ParsedArguments.asksForHelp(arguments) { return .help }
        let parsed = try ParsedArguments(arguments, spec: spec)
        if parsed[versionFlag] { return .version }
        if parsed[listProfilesFlag] { return .listProfiles }
        if let extra = parsed.positionals.first { throw UsageError("Unexpected argument \(Quoted(extra))") }
        let request = ServeRequest(
            links: parsed[link], count: parsed[count], seed: parsed[seed], logPath: parsed[log],
            profile: parsed[profile], faults: try FaultOptions.plan(parsed, seed: 0), board: parsed[board])
        if request.board != nil, request.profile != nil {
            throw UsageError("'--board' serves its own device: give it or '--profile', not both")
        }
        if let count = request.count, request.links.count > 1, request.links.count != count {
            throw UsageError(
                "'--count \(count)' with \(request.links.count) '--link's: give one --link (numbered -1 … -\(count)) or one per device"
            )
        }
        var seen: Set<String> = []
        if let repeated = request.links.first(where: { !seen.insert($0).inserted }) {
            throw UsageError("'--link \(repeated)' is given twice: each device needs a link of its own")
        }
        return .serve(request)
    }
}
