import Testing
import TetherModel

/// The registry: every built-in dialect found by its name, settings a dialect does not
/// take refused, defaults filled — and a dialect defined outside the Model (in this one
/// file, through the public API only) registered, found by name and answering.
@Suite struct DialectRegistryTests {
    @Test(arguments: ["line", "at", "scpi", "prompt"])
    func eachBuiltInDialectIsFoundByItsName(name: String) throws {
        let kind = try #require(DialectRegistry.builtIn[name])
        #expect(kind.name == name)
        #expect(try kind.makeDialect().name == name)
    }

    @Test func namesAreListedInHelpOrder() {
        #expect(DialectRegistry.builtIn.names.starts(with: ["line", "at", "scpi", "prompt"]))
        #expect(DialectRegistry.builtIn["LINE"] == nil, "names are exact; the command line lowercases")
        #expect(DialectRegistry.builtIn.names(taking: .errorPattern).starts(with: ["line", "prompt"]))
        #expect(DialectRegistry.builtIn.names(taking: .sendsNothingUnsolicited).starts(with: ["line", "scpi"]))
    }

    @Test func aSettingTheDialectDoesNotTakeIsRefusedFirstInOrder() {
        let settings = DialectSettings(checksErrors: true, prompt: "> ")
        let error = #expect(throws: DialectKind.UnsupportedSetting.self) { try ATDialect.kind.makeDialect(settings) }
        #expect(error?.setting == .checksErrors)
        #expect(error?.dialect == "at")
    }

    @Test func defaultsFillOnlyWhatIsNotGivenAndWhatTheDialectTakes() throws {
        let defaults = DialectSettings(errorPattern: try LinePattern("^Error"), prompt: "> ")
        let prompt = try #require(try PromptDialect.kind.makeDialect(defaults: defaults) as? PromptDialect)
        #expect(prompt.prompt == "> ")
        #expect(prompt.errorPattern != nil)
        let given = try #require(
            try PromptDialect.kind.makeDialect(DialectSettings(prompt: "=> "), defaults: defaults) as? PromptDialect)
        #expect(given.prompt == "=> ")
        // `at` takes no error pattern and no prompt: the defaults are ignored, not refused.
        let at = try #require(try ATDialect.kind.makeDialect(defaults: defaults) as? ATDialect)
        #expect(at.terminator == .cr)
    }

    /// Unmarked dialects listen (and settle from the start) only when told so:
    /// `--listen`, or a profile's default that `--no-unsolicited` overrides.
    @Test func unmarkedDialectsListenOnlyWhenTold() throws {
        #expect(try LineDialect.kind.makeDialect().listenPeriod == nil)
        let listen = DialectSettings(listenPeriod: .milliseconds(150))
        #expect(try LineDialect.kind.makeDialect(listen).listenPeriod == .milliseconds(150))
        #expect(try SCPIDialect.kind.makeDialect(defaults: listen).listenPeriod == .milliseconds(150))
        let quiet = DialectSettings(sendsNothingUnsolicited: true)
        #expect(try SCPIDialect.kind.makeDialect(quiet, defaults: listen).listenPeriod == nil)
        #expect(throws: DialectKind.UnsupportedSetting.self) { try ATDialect.kind.makeDialect(listen) }
    }

    @Test func aDialectOfOurOwnIsRegisteredFoundByNameAndAnswers() throws {
        var registry = DialectRegistry.builtIn
        registry.register(DotDialect.kind)
        #expect(registry.names == DialectRegistry.builtIn.names + ["dot"])
        #expect(registry.names(taking: .terminator).last == "dot")
        let kind = try #require(registry["dot"])
        let error = #expect(throws: DialectKind.UnsupportedSetting.self) {
            try kind.makeDialect(DialectSettings(prompt: "> "))
        }
        #expect(error?.setting == .prompt)

        var session = Session(dialect: try kind.makeDialect(DialectSettings(terminator: .crlf)))
        let now = ContinuousClock.now
        let (id, sent) = session.enqueue("LIST", timeout: .seconds(1), now: now)
        #expect(sent.contains(.write(Array("LIST\r\n".utf8))))
        let received = session.receive(Array("one\r\ntwo\r\n.\r\n+READY\r\n".utf8), now: now)
        let events = received.compactMap { if case .emit(let event) = $0 { event } else { nil } }
        let replies = events.compactMap { event in
            if case .replied(id, _, let reply, _) = event { reply.lines.map(\.text) } else { nil }
        }
        #expect(replies == [["one", "two"]])
        #expect(events.contains(.notification(Line("+READY"))))
    }
}

/// A toy dialect, wholly in this file: a reply is every line up to a line holding only
/// `.` (as POP3's multi-line replies end). Adding it to tether's own dialects would take
/// this type and one entry in ``DialectRegistry/builtIn``.
private struct DotDialect: Dialect {
    static let kind = DialectKind(name: "dot", summary: "replies end with a line '.'", takes: [.terminator]) {
        DotDialect(terminator: $0.terminator ?? .lf)
    }

    var name: String { Self.kind.name }
    var terminator: Terminator

    func expectsReply(to command: String) -> Bool { true }

    func makeMatcher(for command: String) -> any ReplyMatcher { Matcher() }

    func isUnsolicited(_ line: Line, pending: String?) -> Bool { line.text.hasPrefix("+") }

    struct Matcher: ReplyMatcher {
        var linesSoFar: [Line] = []
        var hasStarted: Bool { !linesSoFar.isEmpty }

        mutating func offer(_ line: Line) -> MatchStep {
            guard line.text != "." else { return .complete(Reply(lines: linesSoFar)) }
            linesSoFar.append(line)
            return .consumed
        }
    }
}
