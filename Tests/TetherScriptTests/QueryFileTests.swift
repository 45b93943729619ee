import Testing
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

    @Test func equalsTakesTheRestOfTheLineTrimmed() throws {
        let file = try QueryFile(parsing: "*IDN?   ==   TETHER,ENV-1, SIM0001,1.0  \r\n", name: "q.txt")
        let step = try #require(file.steps.first)
        #expect(step.command == "*IDN?")
        #expect(step.description == "*IDN? == TETHER,ENV-1, SIM0001,1.0")
        #expect(step.expectation?.holds(for: ["TETHER,ENV-1, SIM0001,1.0"]) == true)
        #expect(step.expectation?.holds(for: ["TETHER,ENV-1, SIM0001,1.0 "]) == false)
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
        let file = try QueryFile(parsing: "SET a==b\nSET x =~y\nSET z ==\n", name: "q.txt")
        #expect(file.steps[0].command == "SET a==b")
        #expect(file.steps[0].expectation == nil)
        #expect(file.steps[1].command == "SET x =~y")
        #expect(file.steps[2].command == "SET z")
        #expect(file.steps[2].expectation?.description == "== ")
    }

    @Test func invalidRegexIsAScriptErrorWithItsLine() {
        #expect(
            throws: ScriptError(at: SourceLocation(file: "q.txt", line: 2), "'([' is not a valid regular expression")
        ) {
            try QueryFile(parsing: "*IDN?\nTEMP? =~ ([\n", name: "q.txt")
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
