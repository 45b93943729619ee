import Testing
import TetherModel
import TetherPresenter
import TetherScript
import TetherSimulator

/// In the `prompt` dialect the prompt that ends a reply is part of the exchange, yet a
/// script that sends a command and then waits for the prompt still sees it: it stays
/// the device's pending text until a line comes or a wait consumes it.
@Suite struct PromptDialectScriptTests {
    typealias Chunk = ScriptedDevice.Chunk

    /// U-Boot: `version` answers one line and prompts again.
    static func uBoot() -> ScriptedDevice {
        ScriptedDevice(
            onOpen: [],
            rules: [.init(on: "version\r", send: [Chunk("version\r\nU-Boot 2024.01\r\n=> ")])])
    }

    /// The trial's script, `device.send("version"); device.expect("=> $")`, timed out
    /// under `--dialect prompt`: the reply had taken the prompt. A second expect finds
    /// it consumed.
    @Test func luaExpectMatchesThePromptThatEndedTheReply() async throws {
        let harness = try Harness([(nil, Self.uBoot())], dialect: PromptDialect())
        let summary = try await harness.run(
            """
            device.send("version")
            device.expect("=> $")
            local again = device.expect("=> $", 300)
            check(again == nil, "the prompt was consumed")
            """, timeout: .seconds(5))
        #expect(summary.passed == 2, "\(harness.view.checks) \(harness.view.problems)")
        #expect(harness.view.checks.first?.actual == ["=> "])
        #expect(harness.view.checks.map(\.status) == [.passed, .timedOut, .passed])
    }

    /// The same after `query`: the reply's lines are the query's, the prompt is left.
    @Test func luaExpectMatchesThePromptAfterAQuery() async throws {
        let harness = try Harness([(nil, Self.uBoot())], dialect: PromptDialect())
        let summary = try await harness.run(
            """
            local reply = device.query("version")
            check(reply[1] == "U-Boot 2024.01", tostring(reply[1]))
            device.expect("^=> $")
            """, timeout: .seconds(5))
        #expect(summary.outcome == .passed, "\(harness.view.checks) \(harness.view.problems)")
    }

    /// A query file's wait line after a command, the same rule.
    @Test func queryFileWaitMatchesThePromptThatEndedTheReply() async throws {
        let harness = try Harness([(nil, Self.uBoot())], dialect: PromptDialect())
        let summary = try await harness.run(
            """
            version
            =~ => $
            """, name: "uboot.txt", language: .queries, timeout: .seconds(5))
        #expect(summary.outcome == .passed, "\(harness.view.checks) \(harness.view.problems)")
        #expect(summary.passed == 2)
    }
}
