import Synchronization
import Testing

@testable import TetherCommandLine

/// An option's help, default text and choices are worked out when shown, not when it is
/// declared: a command that runs builds its option tables but shows none of them
/// (docs/PERFORMANCE.md, "Start-up").
@Suite struct OptionDeclarationTests {
    /// How many times each described part was worked out.
    final class Reads: Sendable {
        let help = Atomic(0)
        let defaultText = Atomic(0)
        let choices = Atomic(0)

        func count(_ counter: borrowing Atomic<Int>, _ text: String) -> String {
            counter.add(1, ordering: .relaxed)
            return text
        }
    }

    @Test func declaringAnOptionDescribesNothingUntilItIsShown() throws {
        let reads = Reads()
        let option = Option<Int>(
            "--rate", value: "n", help: reads.count(reads.help, "How many."), default: 3,
            defaultHelp: reads.count(reads.defaultText, "three"), choices: [reads.count(reads.choices, "3")],
            parse: { text throws(InvalidValue) in Int(text) ?? 0 })
        let parsed = try ParsedArguments(
            ["--rate", "4"], spec: CommandSpec(program: "demo", abstract: "Demo.", options: [option.declaration]))
        #expect(parsed[option] == 4)
        #expect(reads.help.load(ordering: .relaxed) == 0)
        #expect(reads.defaultText.load(ordering: .relaxed) == 0)
        #expect(reads.choices.load(ordering: .relaxed) == 0)

        #expect(option.declaration.fullHelp == "How many. (default: three)")
        #expect(option.declaration.choices == ["3"])
        #expect(reads.help.load(ordering: .relaxed) == 1)
        #expect(reads.defaultText.load(ordering: .relaxed) == 1)
        #expect(reads.choices.load(ordering: .relaxed) == 1)
    }

    @Test func aDefaultIsDescribedWhenNoDefaultHelpIsGiven() {
        enum Speed: String, CaseIterable, Sendable { case fast, slow }
        let speed = Option<Speed>(
            "--speed", value: "speed", help: "How fast.", default: .slow, parse: Parse.choice(Speed.self))
        #expect(speed.declaration.defaultText == "slow")
        #expect(speed.declaration.choices == ["fast", "slow"])
        #expect(Option<Int>("--n", value: "n", help: "", default: 7, parse: { _ in 7 }).declaration.defaultText == "7")
    }

    @Test func aRefusedChoiceNamesEveryChoice() throws {
        enum Speed: String, CaseIterable, Sendable { case fast, slow }
        #expect(throws: InvalidValue("Please provide one of 'fast', 'slow'.")) {
            try Parse.choice(Speed.self)("medium")
        }
        #expect(try Parse.choice(Speed.self)("FAST") == .fast)
    }
}
