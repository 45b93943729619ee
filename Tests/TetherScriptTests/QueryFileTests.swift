import Testing
import TetherModel
import TetherPresenter

@testable import TetherScript

/// The query file syntax, line by line.
@Suite struct QueryFileTests {
    @Test func commandsCommentsAndBlankLines() throws {
        let file = try QueryFile(
            parsing: "# setup\n\n*IDN?\n  TEMP?  \r\n\t# indented comment\nSETP 25\n", name: "q.txt")
        #expect(file.steps.map(\.command) == ["*IDN?", "TEMP?", "SETP 25"])
        #expect(file.steps.map(\.line) == [3, 4, 6])
        #expect(file.steps.allSatisfy { $0.expectation == nil })
    }

    /// `""` is the empty command and `" "` a space (not wait lines, not skipped);
    /// escapes give exact bytes; a bad escape names the line and the position.
    @Test func quotesAndEscapesSpellExactBytes() throws {
        let file = try QueryFile(parsing: "\"\"\n\" \" == OK\nA\\tB\\xff\n\"x\"y\n", name: "q.txt")
        #expect(file.steps.map(\.bytes) == [[], [0x20], [0x41, 0x09, 0x42, 0xFF], Array("\"x\"y".utf8)])
        #expect(file.steps.map(\.isWait) == [false, false, false, false])
        #expect(file.steps.map(\.description) == ["\"\"", "\" \" == OK", "A\\tB\\xff", "\"x\"y"])
        #expect(throws: ScriptError.self) { try QueryFile(parsing: "*IDN?\nSEND \\x4\n", name: "q.txt") }
    }

    @Test func equalsTakesTheRestOfTheLineTrimmed() throws {
        let file = try QueryFile(parsing: "*IDN?   ==   TETHER,ENV-1, SIM0001,1.0  \r\n", name: "q.txt")
        let step = try #require(file.steps.first)
        #expect(step.command == "*IDN?")
        #expect(step.description == "*IDN? == TETHER,ENV-1, SIM0001,1.0")
        #expect(step.expectation?.holds(for: ["TETHER,ENV-1, SIM0001,1.0"]) == true)
        #expect(step.expectation?.holds(for: ["TETHER,ENV-1, SIM0001,1.0 "]) == false)
    }

    /// A no-break space (as a datasheet copied into a file brings) stayed at the end
    /// of a command and was sent; a space carrying a combining mark (`xt== ` then
    /// U+05B6, found by the `queryfile` fuzz target) stayed at the end of another.
    @Test func unicodeSpacesAreBlanks() throws {
        let file = try QueryFile(
            parsing: "*IDN?\u{00A0}\u{00A0}==\u{00A0}TETHER\u{2003}\nxt== \u{05B6}\n", name: "q.txt")
        #expect(file.steps.map(\.command) == ["*IDN?", "xt=="])
        #expect(file.steps.first?.expectation?.holds(for: ["TETHER"]) == true)
        #expect(file.steps.last?.expectation == nil)
    }

    @Test func regexMatchesAnyLineOfTheReply() throws {
        let file = try QueryFile(parsing: "AT+CSQ =~ ^\\+CSQ: \\d+,99$\n", name: "q.txt")
        let expectation = try #require(file.steps.first?.expectation)
        #expect(expectation.holds(for: ["+CSQ: 20,99", "OK"]))
        #expect(!expectation.holds(for: ["+CSQ: 20,0", "OK"]))
    }

    /// An operator needs a blank before it and a blank or the end after it; anything
    /// else is part of the command.
    @Test func operatorsInsideACommandStayInTheCommand() throws {
        let file = try QueryFile(parsing: "SET a==b\nSET x =~y\n", name: "q.txt")
        #expect(file.steps[0].command == "SET a==b")
        #expect(file.steps[0].expectation == nil)
        #expect(file.steps[1].command == "SET x =~y")
    }

    @Test func invalidRegexIsAScriptErrorWithItsLine() {
        #expect(
            throws: ScriptError(at: SourceLocation(file: "q.txt", line: 2), "'([' is not a valid regular expression")
        ) {
            try QueryFile(parsing: "*IDN?\nTEMP? =~ ([\n", name: "q.txt")
        }
    }

    /// `*IDN? ==` was accepted, as an expectation of an empty reply line that no
    /// device sends for `*IDN?`: a line left half-written.
    @Test func equalsWithoutTextIsAScriptError() {
        #expect(
            throws: ScriptError(
                at: SourceLocation(file: "q.txt", line: 2),
                "'==' needs the text of a reply line (for an empty line: '=~ ^$')")
        ) {
            try QueryFile(parsing: "TEMP?\n*IDN? ==  \n", name: "q.txt")
        }
    }

    @Test func expectationWithoutCommandIsAScriptError() {
        #expect(throws: ScriptError(at: SourceLocation(file: "q.txt", line: 1), "'=~' needs a regular expression")) {
            try QueryFile(parsing: "TEMP? =~\n", name: "q.txt")
        }
        #expect(
            throws: ScriptError(at: SourceLocation(file: "q.txt", line: 1), "expectation without a command before '=='")
        ) {
            try QueryFile(parsing: " == 5\n", name: "q.txt")
        }
    }
}

/// Wait lines (`=~ REGEX` alone) and what they look at (``ReceivedText``).
@Suite struct QueryFileWaitTests {
    @Test func aLineStartingWithTheRegexOperatorWaits() throws {
        let file = try QueryFile(parsing: "=~ login: $\nroot\n=~ # $\n", name: "q.txt")
        #expect(file.steps.map(\.isWait) == [true, false, true])
        #expect(file.steps.map(\.description) == ["=~ login: $", "root", "=~ # $"])
        #expect(file.steps[0].command.isEmpty)
    }

    private func pending(_ text: String) -> Line { Line(Array(text.utf8), ending: .unterminated) }

    /// A match in the pending text consumes it up to the end of the match, in the
    /// device when it can; the next wait looks after it.
    @Test func pendingTextIsConsumedUpToTheEndOfTheMatch() throws {
        var received = ReceivedText()
        received.append(Line("Poky (Yocto) 4.0 qemux86 ttyS0"))
        received.setPending(pending("qemux86 login: "), start: 36)
        var asked: [(Int, Int)] = []
        let found = received.take(matching: try LinePattern("login: $")) { start, count in
            asked.append((start, count))
            return true
        }
        #expect(found == "qemux86 login: ")
        #expect(asked.map(\.0) == [36] && asked.map(\.1) == [15])
        #expect(received.take(matching: try LinePattern("Poky")) { _, _ in true } == nil, "lines before are consumed")
    }

    /// When the device's line ended first, the consumed part is dropped from that line
    /// here instead.
    @Test func aLineThatEndedFirstLosesTheConsumedPart() throws {
        var received = ReceivedText()
        received.setPending(pending("step 1; step 2"), start: 0)
        #expect(received.take(matching: try LinePattern("step \\d")) { _, _ in false } == "step 1; step 2")
        received.append(Line("step 1; step 2 done"))
        #expect(received.take(matching: try LinePattern("step 1")) { _, _ in true } == nil)
        #expect(received.take(matching: try LinePattern("step 2")) { _, _ in true } == "; step 2 done")
    }
}

/// `@break` takes a length as every duration option does (docs/SCRIPTS.md,
/// "Durations"): `@break .5s` and `@break 1s` were refused, only bare ms read.
@Suite struct QueryBreakDirectiveTests {
    @Test(arguments: [
        ("@break", 250), ("@break 100", 100), ("@break 250ms", 250), ("@break .5s", 500), ("@break 1s", 1000),
    ])
    func aBreakTakesADuration(line: String, milliseconds: Int) throws {
        let file = try QueryFile(parsing: line + "\n", name: "q.txt")
        #expect(file.steps.first?.control == .sequence(.breakSignal(milliseconds: milliseconds)))
    }

    @Test(arguments: ["@break 0", "@break 2m", "@break 5x", "@break 1 2"])
    func aBreakOutOfRangeIsAScriptError(line: String) {
        #expect(throws: ScriptError.self) { try QueryFile(parsing: line + "\n", name: "q.txt") }
    }
}
