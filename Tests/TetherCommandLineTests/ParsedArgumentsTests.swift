import Testing
import TetherCommandLine

/// A command with one option of each shape, as the tests' fixture.
private enum Sample {
    enum Parity: String, CaseIterable, Sendable { case none, odd, even }

    static let baud = Option<Int>(
        "--baud", "-b", value: "rate", help: "Baud rate in bit/s.", default: 115_200,
        range: .integers(atLeast: 1, "baud"))
    static let parity = Option<Parity>(
        "--parity", value: "parity", help: "Parity.", default: .none, parse: Parse.choice(Parity.self))
    static let prompt = Option<String?>(
        "--prompt", value: "text", help: "The prompt.", defaultHelp: "'=> '",
        parse: Parse.nonEmpty(InvalidValue("Please provide the prompt's text.")))
    static let latency = Option<Int?>(
        "--latency", value: "ms", help: "Delay every reply.",
        range: .integers(0...60_000, "ms"))
    static let urc = Option<[String]>("--urc", value: "prefix", help: "Unsolicited.", each: Parse.text)
    static let wait = Option<Duration?>(
        "--wait-timeout", value: "seconds", help: "Wait.", range: .durations(.milliseconds(1), bare: .seconds))
    static let sim = Flag("--sim", help: "Use the simulator.")

    static let spec = CommandSpec(
        program: "tool", name: "query", abstract: "Send commands.",
        arguments: [ArgumentSpec(name: "command", help: "A command.", isVariadic: true)],
        options: [
            baud.declaration, parity.declaration, prompt.declaration, latency.declaration, urc.declaration,
            wait.declaration, sim.declaration,
        ],
        unknownOptionMessages: ["--port": "The port is an argument here"])

    static func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(arguments, spec: spec)
    }
}

@Suite struct ParsedArgumentsTests {
    @Test func optionsNotGivenReadAsTheirDefaults() throws {
        let arguments = try Sample.parse(["X"])
        #expect(arguments[Sample.baud] == 115_200)
        #expect(arguments[Sample.parity] == .none)
        #expect(arguments[Sample.prompt] == nil)
        #expect(arguments[Sample.urc] == [])
        #expect(arguments[Sample.sim] == false)
        #expect(arguments.positionals == ["X"])
    }

    @Test func valuesAreReadTypedWithEitherSpellingAndEitherForm() throws {
        let arguments = try Sample.parse([
            "-b", "9600", "--parity=ODD", "--prompt", "=> ", "--sim", "--wait-timeout", "1.5", "A", "B",
        ])
        #expect(arguments[Sample.baud] == 9600)
        #expect(arguments[Sample.parity] == .odd)
        #expect(arguments[Sample.prompt] == "=> ")
        #expect(arguments[Sample.sim])
        #expect(arguments[Sample.wait] == .milliseconds(1500))
        #expect(arguments.positionals == ["A", "B"])
    }

    @Test func anInlineValueMayBeEmptyOrHoldAnEqualsSign() throws {
        #expect(try Sample.parse(["--urc==x", "--urc="])[Sample.urc] == ["=x", ""])
    }

    @Test func aValueStartingWithADashIsTheOptionsValue() throws {
        #expect(
            throws: UsageError("The value '-5' is invalid for '--latency <ms>': must be a whole number, 0 to 60000 ms")
        ) {
            try Sample.parse(["--latency", "-5"])
        }
        #expect(try Sample.parse(["--prompt", "-h"])[Sample.prompt] == "-h")
    }

    @Test func doubleDashEndsOptions() throws {
        let arguments = try Sample.parse(["--sim", "--", "-h", "--baud", "--", "-"])
        #expect(arguments[Sample.sim])
        #expect(arguments[Sample.baud] == 115_200)
        #expect(arguments.positionals == ["-h", "--baud", "--", "-"])
    }

    @Test func aSingleDashIsAPositional() throws {
        #expect(try Sample.parse(["-"]).positionals == ["-"])
    }

    @Test func helpIsAskedForOnlyBeforeADoubleDash() {
        #expect(ParsedArguments.asksForHelp(["--sim", "-h"]))
        #expect(ParsedArguments.asksForHelp(["--bogus", "--help"]))
        #expect(!ParsedArguments.asksForHelp(["--sim", "--", "-h"]))
        #expect(!ParsedArguments.asksForHelp(["--prompt=-h"]))
    }

    @Test(arguments: [
        (["--bud", "9600"], "Unknown option '--bud'. Did you mean '--baud'?"),
        (["--baudrate", "9600"], "Unknown option '--baudrate'. Did you mean '--baud'?"),
        (["--simm"], "Unknown option '--simm'. Did you mean '--sim'?"),
        (["--help-me"], "Unknown option '--help-me'. Did you mean '--help'?"),
        (["--frobnicate"], "Unknown option '--frobnicate'."),
        (["-x"], "Unknown option '-x'. Did you mean '-b'?"),
        (["--port", "/dev/ttyS0"], "The port is an argument here"),
    ])
    func anUnknownOptionGetsTheNearestSuggestion(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Sample.parse(arguments) }
    }

    @Test(arguments: [
        (["--baud"], "Missing value for '--baud <rate>'"),
        (["X", "-b"], "Missing value for '--baud <rate>'"),
        (["--sim=yes"], "'--sim' takes no value"),
        (["--sim="], "'--sim' takes no value"),
        (["--baud", "9600", "--baud", "300"], "'--baud' may be given only once"),
        // Was accepted as once, unlike an option with a value given twice.
        (["--sim", "--sim"], "'--sim' may be given only once"),
    ])
    func aMalformedCommandLineSaysWhat(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Sample.parse(arguments) }
    }

    @Test func aRepeatableOptionKeepsEveryValueInOrder() throws {
        #expect(try Sample.parse(["--urc", "^A", "--urc", "^B", "--urc=^A"])[Sample.urc] == ["^A", "^B", "^A"])
    }

    @Test(arguments: [
        (
            ["--baud", "0"],
            "The value '0' is invalid for '--baud <rate>': must be a whole number, 1 baud or more"
        ),
        (
            ["--baud", "fast"],
            "The value 'fast' is invalid for '--baud <rate>': must be a whole number, 1 baud or more"
        ),
        (
            ["--parity", "purple"],
            "The value 'purple' is invalid for '--parity <parity>'. Please provide one of 'none', 'odd', 'even'."
        ),
        (["--prompt="], "The value of '--prompt <text>' is empty. Please provide the prompt's text."),
        (
            ["--wait-timeout", "0"],
            "The value '0' is invalid for '--wait-timeout <seconds>': must be a duration such as 500ms or 2m, 1ms or more; a bare number is seconds"
        ),
        (
            ["--wait-timeout", "1e10"],
            "The value '1e10' is invalid for '--wait-timeout <seconds>': unknown unit 'e10': write ms, s, m or h after the number (500ms, 3s, 2m)"
        ),
    ])
    func aValueOutOfRangeNamesTheOptionAndWhatItTakes(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Sample.parse(arguments) }
    }

    @Test func aBadValueIsRefusedWhereItIsGivenEvenIfNeverRead() {
        #expect(throws: UsageError.self) { try Sample.parse(["X", "--baud", "-1", "Y"]) }
    }

    @Test func aLayerReplacesValuesAndTurnsFlagsOnOrOff() throws {
        var arguments = try Sample.parse(["--urc", "^A", "--sim", "--baud", "300"])
        try arguments.override(values: ["--urc": ["^B", "^C"], "--parity": ["even"]], flags: ["--sim": false])
        #expect(arguments[Sample.urc] == ["^B", "^C"])
        #expect(arguments[Sample.parity] == .even)
        #expect(arguments[Sample.baud] == 300)
        #expect(!arguments[Sample.sim])
        #expect(arguments.isGiven(Sample.parity.declaration))
        #expect(arguments.rawValues(of: Sample.urc.declaration) == ["^B", "^C"])
    }

    @Test func aLayerIsCheckedAsTheCommandLineIs() {
        var arguments = ParsedArguments(spec: Sample.spec)
        #expect(
            throws: UsageError(
                "The value 'x' is invalid for '--baud <rate>': must be a whole number, 1 baud or more")
        ) {
            try arguments.override(values: ["--baud": ["x"]], flags: [:])
        }
        #expect(throws: UsageError("Unknown option '--bogus'")) {
            try arguments.override(values: [:], flags: ["--bogus": true])
        }
    }

    @Test func aDeclarationValidatesOneValueAsTheParserWould() {
        #expect(
            throws: UsageError(
                "The value 'odd!' is invalid for '--parity <parity>'. Please provide one of 'none', 'odd', 'even'.")
        ) {
            try Sample.parity.declaration.validate("odd!")
        }
    }

    @Test func anOptionsOwnMessageReplacesTheUsualWording() {
        let match = Option<String?>("--match", value: "id", help: "") { text throws(InvalidValue) in
            throw .message("port match '\(text)' is empty")
        }
        let spec = CommandSpec(program: "tool", abstract: "", options: [match.declaration])
        #expect(throws: UsageError("port match '' is empty")) { try ParsedArguments(["--match="], spec: spec) }
    }
}
