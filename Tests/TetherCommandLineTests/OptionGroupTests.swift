import Testing

@testable import TetherCommandLine

/// Option groups are opt-in, as swift-argument-parser's `@OptionGroup`: an option added
/// to a group reaches the commands that list the group and no other.
@Suite struct OptionGroupTests {
    struct Common: FieldOptionGroup {
        static let title = "COMMON OPTIONS"
        let baud = Option<Int>("--baud", value: "rate", help: "Baud.", default: 9600, range: .integers(1...1_000_000))
        let quiet = Flag("--quiet", help: "Say less.")
    }

    /// A group added later: its option must not leak onto a command that does not list it.
    struct Added: FieldOptionGroup {
        static let title = "ADDED OPTIONS"
        static let isCommon = false
        let color = Option<String?>("--color", value: "when", help: "Colour.", parse: Parse.text)
        let noColor = Flag("--no-color", help: "No colour.")

        static func validate(_ arguments: ParsedArguments) throws(UsageError) {
            let given = arguments[Self.self]
            if given.color != nil, given.noColor { throw UsageError("'--color' and '--no-color' do not go together") }
        }
    }

    static let query = CommandSpec(program: "tool", name: "query", abstract: "Q.", groups: [Common.self, Added.self])
    static let lines = CommandSpec(program: "tool", name: "lines", abstract: "L.", groups: [Common.self])

    @Test func theFieldsAreTheDeclarationsInOrder() {
        #expect(Common.options.map(\.key) == ["--baud", "--quiet"])
        #expect(Added.options.map(\.key) == ["--color", "--no-color"])
    }

    @Test func aCommandTakesTheGroupsItListsAndNoOther() throws {
        let parsed = try ParsedArguments(["--color", "auto", "--baud", "115200", "--quiet"], spec: Self.query)
        #expect(parsed[Added.self].color == "auto")
        #expect(parsed[Common.self].baud == 115200)
        #expect(parsed[Common.self].quiet)
        #expect(throws: UsageError("Unknown option '--color'.")) {
            try ParsedArguments(["--color", "auto"], spec: Self.lines)
        }
        #expect(ParsedArguments(spec: Self.lines)[Common.self].baud == 9600)
    }

    @Test func aGroupsRulesAreCheckedWhenTheLineIsParsed() {
        #expect(throws: UsageError("'--color' and '--no-color' do not go together")) {
            try ParsedArguments(["--color", "x", "--no-color"], spec: Self.query)
        }
    }

    @Test func helpShowsTheCommonGroupsAndHelpAllEveryOne() {
        let help = HelpFormatter.help(Self.query)
        #expect(help.contains("COMMON OPTIONS:\n  --baud <rate>"))
        #expect(!help.contains("--color"))
        #expect(help.contains("  --help-all"))
        #expect(help.hasSuffix("'tool query --help-all' shows 2 more options:\n  added options.\n"))
        let all = HelpFormatter.help(Self.query, showsAll: true)
        #expect(all.contains("ADDED OPTIONS:\n  --color <when>"))
        #expect(!HelpFormatter.help(Self.lines).contains("--help-all"))
    }

    @Test func theManPageListsASharedGroupOnce() {
        let root = CommandSpec(program: "tool", abstract: "T.")
        let page = ManPage.render(root, subcommands: [Self.query, Self.lines], version: "tool 1")
        #expect(page.ranges(of: "\\fB\\-\\-baud\\fR").count == 1)
        #expect(page.contains(".SH \"COMMON OPTIONS\"\n"))
        #expect(page.contains("And the options of: COMMON OPTIONS, ADDED OPTIONS (below)."))
    }
}

/// ``DurationText``: the one syntax of every duration option.
@Suite struct DurationTextTests {
    static let range = ValueRange<Duration>.durations(.zero, to: .seconds(60), bare: .milliseconds)

    @Test(arguments: [
        ("500ms", 500), ("3s", 3000), ("1.5s", 1500), ("1m", 60_000), ("250", 250), ("0", 0), ("2S", 2000),
        // Refused before: a number without its leading 0, and several units added up.
        (".5s", 500), ("0m30s", 30_000), ("2s500ms", 2500),
    ])
    func aDurationIsReadInItsUnit(text: String, milliseconds: Int64) throws {
        #expect(try Self.range.parse(text) == .milliseconds(milliseconds))
    }

    @Test(arguments: [
        ("3x", InvalidValue.because("unknown unit 'x': write ms, s, m or h after the number (500ms, 3s, 2m)")),
        ("0.5ms", .because("a duration is whole milliseconds")),
        ("61s", .expected("a duration such as 500ms or 2m, 0 to 1m; a bare number is ms", saying: "must be")),
        ("s", .expected("a duration such as 500ms or 2m, 0 to 1m; a bare number is ms", saying: "must be")),
        ("-1s", .expected("a duration such as 500ms or 2m, 0 to 1m; a bare number is ms", saying: "must be")),
        // A bare number is the option's unit only alone: in `30s5`, 5 of what?
        ("30s5", .expected("a duration such as 500ms or 2m, 0 to 1m; a bare number is ms", saying: "must be")),
        ("1m30x", .because("unknown unit 'x': write ms, s, m or h after the number (500ms, 3s, 2m)")),
        ("1..5s", .expected("a duration such as 500ms or 2m, 0 to 1m; a bare number is ms", saying: "must be")),
    ])
    func aBadDurationSaysWhy(text: String, problem: InvalidValue) {
        #expect(throws: problem) { try Self.range.parse(text) }
    }

    @Test func theLargestWholeUnitDescribesADuration() {
        #expect(DurationText.describe(.seconds(86_400)) == "24h")
        #expect(DurationText.describe(.milliseconds(1500)) == "1500ms")
        #expect(DurationText.describe(.seconds(90)) == "90s")
        #expect(DurationText.describe(.zero) == "0")
    }

    @Test func onlyABareNumberThatReadsLikeAnotherUnitIsWarnedOf() {
        let seconds = ValueRange<Duration>.durations(.milliseconds(1), bare: .seconds)
        #expect(
            seconds.warning("3000")
                == "is 50m (a bare number is seconds here); did you mean 3000ms (3s)? Give the unit to say which")
        #expect(seconds.warning("3000s") == nil)
        #expect(seconds.warning("60") == nil)
        let milliseconds = ValueRange<Duration>.durations(.zero, bare: .milliseconds, warnsBelow: 10)
        #expect(milliseconds.warning("5")?.hasPrefix("is 5 ms") == true)
        #expect(milliseconds.warning("0") == nil)
        #expect(milliseconds.warning("50") == nil)
        // `--break 5`, `--pulse-dtr 5` (whole ms) as `--timeout 5`.
        let whole = ValueRange<Int>.milliseconds(atLeast: 1, warnsBelow: 10)
        #expect(whole.warning("5")?.hasPrefix("is 5 ms") == true)
        #expect(whole.warning("5ms") == nil)
        #expect(whole.warning("250") == nil)
    }

    /// `1m30s` is 90 s, `1h30m` 90 min: each number with its unit, added up.
    @Test func severalUnitsAreAddedUp() throws {
        let long = ValueRange<Duration>.durations(.zero, bare: .seconds)
        #expect(try long.parse("1m30s") == .seconds(90))
        #expect(try long.parse("1h30m") == .seconds(5400))
        #expect(try long.parse(".5s") == .milliseconds(500))
        #expect(long.warning("1m30s") == nil)
    }
}
