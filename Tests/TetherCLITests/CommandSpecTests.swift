import Testing
import TetherCommandLine
import TetherConnection
import TetherDeviceSettings
import TetherSimulator

@testable import tether

/// The shape of every `tether` command line: what each command takes and shows.
@Suite struct CommandSpecTests {
    static let specs = Tether.commands.map { $0.spec }

    @Test(arguments: specs.map(\.name))
    func noTwoOptionsOfACommandShareAName(command: String) throws {
        let spec = try #require(Self.specs.first { $0.name == command })
        let names = spec.allOptions.flatMap(\.names) + ["-h", "--help"]
        #expect(names.count == Set(names).count, "\(names.filter { name in names.filter { $0 == name }.count > 1 })")
    }

    @Test(arguments: specs.map(\.name))
    func everyOptionHasHelp(command: String) throws {
        let spec = try #require(Self.specs.first { $0.name == command })
        for option in spec.allOptions { #expect(!option.help.isEmpty, "\(option.key)") }
    }

    @Test func monitorTakesNoOptionAboutReplies() {
        for option in ["--timeout", "--eol", "--error-pattern", "--check-errors", "--no-unsolicited"] {
            #expect(MonitorCommand.spec.option(named: option) == nil, "\(option)")
        }
        #expect(MonitorCommand.spec.takes(ReconnectOptions().noReconnect.declaration))
        #expect(!QueryCommand.spec.takes(ReconnectOptions().noReconnect.declaration))
    }

    @Test func linesTakesTheSerialAndHardwareOptionsOnly() {
        let keys = Set(LinesCommand.spec.allOptions.map(\.key))
        #expect(keys.isSuperset(of: DeviceSettings.serialOptions.map(\.key)))
        #expect(keys.isSuperset(of: (PortOptions.options + PortControlOptions.options).map(\.key)))
        #expect(keys.isDisjoint(with: DialectOptions.options.map(\.key)))
        #expect(keys.isDisjoint(with: FaultOptions.all.map(\.key)))
        #expect(!keys.contains("--sim"))
    }

    @Test func theSimulatorOfSimCannotReappear() throws {
        #expect(QueryCommand.spec.option(named: "--latency") != nil)
        #expect(QueryCommand.spec.option(named: "--reappear-after") == nil)
        let all = HelpFormatter.help(QueryCommand.spec, showsAll: true)
        let heading = try #require(all.firstRange(of: "SIMULATOR FAULT OPTIONS (with --sim):\n"))
        #expect(all[heading.upperBound...].hasPrefix("  --latency <ms>"))
    }

    @Test func helpShowsTheDefaultsFromTheDeclarations() {
        let help = HelpFormatter.help(QueryCommand.spec)
        #expect(help.contains("(allowed: 0 to 24h; a bare number is ms; default: 1s)"))
        #expect(help.contains("Baud rate in bit/s, e.g. 9600 or 115200.\n"))
        #expect(help.contains("(allowed: 1 to 2147483647 baud; default: 115200)"))
        #expect(help.contains("Parity: none, odd, even, mark or space. (default: none)"))
        #expect(help.contains("(default: '=> ')"))
        #expect(
            HelpFormatter.help(RunCommand.spec).contains(
                "(allowed: 1 to 65536 MiB; default: \(RunCommand.luaMemory.defaultMiB))"))
    }

    /// `--linger` took at most 60000 ms and its help did not say so: every option
    /// declared with a range states it in `--help` and the man page, from the same
    /// declaration its parser uses.
    @Test(arguments: specs.map(\.name))
    func everyRangeIsInTheHelpAndTheManPage(command: String) throws {
        let spec = try #require(Self.specs.first { $0.name == command })
        let help = HelpFormatter.help(spec, showsAll: true)
        let page = ManPage.render(spec, version: "tether")
        for option in spec.allOptions {
            guard let range = option.rangeText else { continue }
            #expect(option.fullHelp.contains("allowed: \(range)"), "\(option.key)")
            #expect(help.contains("allowed: \(range)"), "\(option.key)")
            #expect(page.contains(range), "\(option.key)")
        }
    }

    @Test func theRangesAreTheParsersOwn() {
        #expect(QueryCommand.linger.declaration.rangeText == "0 to 1m; a bare number is ms")
        #expect(
            HelpFormatter.help(QueryCommand.spec).contains(
                "(allowed: 0 to 1m; a bare number is ms; default: 0, exit at once)"))
        #expect(ReplyOptions.timeout.declaration.rangeText == "0 to 24h; a bare number is ms")
        #expect(DeviceSettings.baud.declaration.rangeText == "1 to 2147483647 baud")
    }

    @Test func thePortOptionOfACommandWithAPortArgumentSaysWhereThePortGoes() {
        let spec = Tether.parsingSpec(QueryCommand.spec)
        #expect(
            throws: UsageError(
                "Unknown option '--port'. The port is an argument here: 'tether query <port> …' (or '--sim')")
        ) {
            try ParsedArguments(["--port", "/dev/ttyS0", "X"], spec: spec)
        }
        // run takes --port.
        #expect(Tether.parsingSpec(RunCommand.spec).takes(RunCommand.port.declaration))
    }

    /// `tether --help`'s EXIT CODES left out 73 and 78, which the README lists: every
    /// code tether exits with is in it.
    @Test(arguments: ExitCode.allCases)
    func helpListsEveryExitCode(code: ExitCode) throws {
        let discussion = Tether.spec.discussion
        let exitCodes = try #require(discussion.firstRange(of: "EXIT CODES:"))
        let listed = discussion[exitCodes.upperBound...].split { !$0.isNumber }.compactMap { Int32($0) }
        #expect(listed.contains(code.rawValue))
    }
}

extension Option where Value == Int {
    /// The default of `--lua-memory`, for the help test.
    fileprivate var defaultMiB: Int { ParsedArguments(spec: RunCommand.spec)[self] }
}
