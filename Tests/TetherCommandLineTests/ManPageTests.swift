import Testing

@testable import TetherCommandLine

@Suite struct ManPageTests {
    enum Mode: String, CaseIterable, Sendable { case fast, slow }

    static let mode = Option<Mode>(
        "--mode", value: "mode", help: "How fast.\n.dot starts this line", default: .fast,
        parse: Parse.choice(Mode.self))
    static let spec = CommandSpec(
        program: "demo", abstract: "Do a thing.",
        discussion: "Reads\\writes 25 °C → 'x'.\n\nEXAMPLES:\n  demo --mode slow",
        options: [mode.declaration])

    @Test func textIsEscapedForRoff() {
        #expect(ManPage.escaped("--baud 25 °C → a\\b") == "\\-\\-baud 25 \\[u00B0]C \\[u2192] a\\eb")
    }

    @Test func thePageHasTheSectionsAndALeadingDotIsProtected() {
        let page = ManPage.render(Self.spec, version: "demo 1.0")
        #expect(page.hasPrefix(".TH DEMO 1 \"\" \"demo 1.0\" \"User Commands\"\n.SH NAME\ndemo \\- Do a thing\n"))
        #expect(page.contains(".SH DESCRIPTION\n.PP\nReads\\ewrites 25 \\[u00B0]C \\[u2192] 'x'.\n"))
        #expect(page.contains(".B EXAMPLES:\n.br\n.RS 2\n.nf\ndemo \\-\\-mode slow\n.fi\n.RE\n"))
        #expect(
            page.contains(".TP\n\\fB\\-\\-mode\\fR \\fImode\\fR\nHow fast.\n\\&.dot starts this line (default: fast)\n")
        )
    }

    @Test func anEnumerationsRawValuesAreItsChoices() {
        #expect(Self.mode.declaration.choices == ["fast", "slow"])
        #expect(Flag("--quiet", help: "").declaration.choices == [])
    }

    @Test func aSummaryIsTheFirstSentenceCutAtAWord() {
        #expect(ShellCompletion.summary("Send it.\nThen wait.") == "Send it")
        let long = String(repeating: "word ", count: 30)
        #expect(ShellCompletion.summary(long).count <= 71)
        #expect(ShellCompletion.summary(long).hasSuffix("word…"))
    }
}
