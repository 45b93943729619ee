import Testing
import TetherCommandLine

@Suite struct HelpFormatterTests {
    static let timeout = Option<Int>(
        "--timeout", "-t", value: "ms", help: "Wait at most this many ms for each reply.", default: 1000,
        range: .integers(0...60_000, "ms"))
    static let format = Option<Format>(
        "--format", value: "format", help: "Output.", default: .text, parse: Parse.choice(Format.self))
    static let eol = Option<String?>(
        "--eol", value: "eol", help: "Terminator sent after each command: lf, cr or crlf.",
        defaultHelp: "lf for line and scpi, cr for at and prompt", parse: Parse.text)
    static let echo = Flag("--echo", help: "Show the keys you type.")
    static let latency = Option<Int?>(
        "--latency", value: "ms", help: "Delay every reply\nby this many ms.", range: .integers(atLeast: 0, "ms"))

    enum Format: String, CaseIterable, Sendable { case text, json }

    static let spec = CommandSpec(
        program: "tool", name: "query", abstract: "Send commands.", discussion: "EXAMPLES:\n  tool query X",
        arguments: [ArgumentSpec(name: "command", help: "A command.", isVariadic: true)],
        options: [timeout.declaration, format.declaration, eol.declaration, echo.declaration],
        sections: [OptionSection(title: "FAULT OPTIONS", options: [latency.declaration])], epilogue: "The end.")

    @Test func theHelpPageIsGeneratedFromTheDeclarationsWithTheirDefaults() {
        #expect(
            HelpFormatter.help(Self.spec) == """
                OVERVIEW: Send commands.

                EXAMPLES:
                  tool query X

                USAGE: tool query <command> ... [<options>]

                ARGUMENTS:
                  <command>  A command.

                OPTIONS:
                  -t <ms>, --timeout <ms>  Wait at most this many ms for each reply. (allowed: 0 to 60000 ms; default: 1000)
                  --format <format>        Output. (default: text)
                  --eol <eol>              Terminator sent after each command: lf, cr or crlf.
                                           (default: lf for line and scpi, cr for at and prompt)
                  --echo                   Show the keys you type.
                  -h, --help               Show help information.

                FAULT OPTIONS:
                  --latency <ms>  Delay every reply
                                  by this many ms. (allowed: 0 ms or more)

                The end.

                """)
    }

    @Test func aSubcommandListAndAGivenUsageLine() {
        var root = CommandSpec(program: "tool", abstract: "A tool.", usage: "tool <subcommand>")
        root.options = [Self.echo.declaration]
        let help = HelpFormatter.help(root, subcommands: [Self.spec])
        #expect(help.contains("USAGE: tool <subcommand>\n"))
        #expect(
            help.contains(
                "SUBCOMMANDS:\n  query  Send commands.\n\n  See 'tool help <subcommand>' for detailed help.\n"))
    }

    @Test func aLongOptionPutsItsHelpOnTheNextLine() {
        let long = Flag("--a-very-long-option-name-indeed-yes", help: "Help.")
        let spec = CommandSpec(program: "tool", abstract: "", options: [long.declaration])
        #expect(
            HelpFormatter.help(spec).contains(
                "  --a-very-long-option-name-indeed-yes\n                                Help.\n"))
    }

    @Test func withHelpKeepsTheNamesAndParser() throws {
        let narrower = Self.timeout.withHelp("Narrower.")
        #expect(narrower.declaration.fullHelp == "Narrower. (allowed: 0 to 60000 ms; default: 1000)")
        let spec = CommandSpec(program: "tool", abstract: "", options: [narrower.declaration])
        #expect(try ParsedArguments(["-t", "5"], spec: spec)[narrower] == 5)
    }
}
