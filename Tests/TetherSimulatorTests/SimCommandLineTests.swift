import Testing
import TetherCommandLine
import TetherSimulator

@testable import tether_sim

/// `tether-sim`'s command line and the fault options it shares with `tether --sim`,
/// parsed in-process.
@Suite struct SimCommandLineTests {
    static func request(_ arguments: [String]) throws(UsageError) -> SimCommandLine.ServeRequest {
        guard case .serve(let request) = try SimCommandLine.parse(arguments) else {
            throw UsageError("not a serve request")
        }
        return request
    }

    @Test func noArgumentsServesOneDefaultDevice() throws {
        let request = try Self.request([])
        #expect(request.deviceCount == 1)
        #expect(request.profile == nil)
        #expect(request.seed(ofDevice: 0) == ProfileDevice.defaultSeed)
        #expect(request.faults(ofDevice: 0) == FaultPlan(seed: ProfileDevice.defaultSeed))
    }

    @Test func countAndOneLinkNumberTheLinksAndLogs() throws {
        let request = try Self.request(["--count=3", "--link", "/tmp/a", "--log", "/tmp/l", "--seed", "7"])
        #expect(request.deviceCount == 3)
        #expect((0..<3).map(request.link(ofDevice:)) == ["/tmp/a-1", "/tmp/a-2", "/tmp/a-3"])
        #expect(request.logPath(ofDevice: 1) == "/tmp/l-2")
        #expect(request.seed(ofDevice: 2) == 9)
    }

    @Test func helpVersionAndTheProfileListWinOverServing() throws {
        let asked = try [["--link", "/tmp/a", "-h"], ["--bogus", "--help"], ["--version"], ["--list-profiles"]]
            .map { arguments throws(UsageError) in
                switch try SimCommandLine.parse(arguments) {
                case .help: "help"
                case .version: "version"
                case .listProfiles: "list"
                case .serve: "serve"
                case .generate: "generate"
                }
            }
        #expect(asked == ["help", "help", "version", "list"])
    }

    /// The hidden options scripts/install uses for the man page and the completions.
    @Test func theHiddenGeneratorsParseOnTheirOwn() throws {
        guard case .generate(let page) = try SimCommandLine.parse(["--generate-man"]) else {
            Issue.record("--generate-man is not a generator")
            return
        }
        #expect(page == .manPage)
        guard case .generate(let script) = try SimCommandLine.parse(["--generate-completion", "zsh"]) else {
            Issue.record("--generate-completion is not a generator")
            return
        }
        #expect(script == .completion(.zsh))
        #expect(throws: UsageError.self) { try SimCommandLine.parse(["--generate-completion", "csh"]) }
    }

    @Test(arguments: [
        (["--", "-h"], "Unexpected argument '-h'"),
        (["extra"], "Unexpected argument 'extra'"),
        (["--bogus"], "Unknown option '--bogus'."),
        (["--lnk", "/tmp/a"], "Unknown option '--lnk'. Did you mean '--link'?"),
        (["--seed"], "Missing value for '--seed <seed>'"),
        (
            ["--seed", "-3"],
            "The value '-3' is invalid for '--seed <seed>': expected a whole number from 0 to 18446744073709551615"
        ),
        (["--count", "0"], "The value '0' is invalid for '--count <n>': must be a whole number, 1 to 256"),
        (["--link="], "The value of '--link <path>' is empty: expected a path"),
        (
            ["--count", "3", "--link", "a", "--link", "b"],
            "'--count 3' with 2 '--link's: give one --link (numbered -1 … -3) or one per device"
        ),
        (["--split"], "Missing value for '--split <bytes>'"),
        (
            ["--drop", "1.5"],
            "The value '1.5' is invalid for '--drop <p>': must be a probability, 0 to 1"
        ),
        (
            ["--burst", "10@0"],
            "The value '10@0' is invalid for '--burst <n@rate>': expected <count>@<lines per second>, e.g. 1000@2000"
        ),
        (
            ["--reappear-after", "100"],
            "'--reappear-after' needs '--disconnect-after <ms>' or '--disconnect-after-lines <n>'"
        ),
        (["--latency", "1", "--latency", "2"], "'--latency' may be given only once"),
        // Served first, then failed on its own link as "a live device, served by tether-sim".
        (
            ["--link", "/tmp/la", "--link", "/tmp/la"],
            "'--link /tmp/la' is given twice: each device needs a link of its own"
        ),
        (["--split-gap", "5"], "'--split-gap' needs '--split <n>' (the gap is between the pieces of a split reply)"),
    ])
    func aBadCommandLineIsAUsageError(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try SimCommandLine.parse(arguments) }
    }

    @Test func everyFaultOptionReachesThePlan() throws {
        let request = try Self.request([
            "--latency", "50", "--jitter", "20", "--pace-baud", "9600", "--split", "3", "--split-gap", "5",
            "--garbage", "0.2", "--drop", "0.1", "--duplicate", "0.05", "--disconnect-after", "5000",
            "--reappear-after", "1000", "--burst", "1000@2000", "--sequence-numbers", "--seed", "6",
        ])
        var expected = FaultPlan(seed: 7)
        expected.latency = .milliseconds(50)
        expected.jitter = .milliseconds(20)
        expected.paceBaud = 9600
        expected.splitMaximum = 3
        expected.splitGap = .milliseconds(5)
        expected.garbageProbability = 0.2
        expected.dropProbability = 0.1
        expected.duplicateProbability = 0.05
        expected.disconnect = .init(trigger: .after(.milliseconds(5000)), reappearAfter: .milliseconds(1000))
        expected.burst = FaultPlan.Burst(count: 1000, rate: 2000)
        expected.sequenceNumbers = true
        #expect(request.faults(ofDevice: 1) == expected)
    }

    @Test func theHelpIsGeneratedWithTheFaultOptionsAndTheirDefaults() {
        let help = HelpFormatter.help(SimCommandLine.spec)
        #expect(help.contains("FAULT OPTIONS (seeded by --seed, so a failing run replays):\n  --latency <ms>"))
        #expect(help.contains("The longest random gap between split pieces.\n"))
        #expect(help.contains("(allowed: 0 or more; a bare number is ms; default: 2)"))
        #expect(help.contains("(default: \(ProfileDevice.defaultSeed))"))
        #expect(help.hasSuffix("tether-sim --count 4 --link /tmp/ttyENV     # /tmp/ttyENV-1 … /tmp/ttyENV-4\n"))
    }
}
