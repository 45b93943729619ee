import Testing
import TetherModel
import TetherPresenter
import TetherScript
import TetherSimulator

/// `expect` and query-file waits on text without a line end (a prompt), as pexpect
/// matches: consumed up to the end of the match, never part of what follows.
@Suite struct PendingTextScriptTests {
    typealias Chunk = ScriptedDevice.Chunk

    /// A Yocto board's serial console: a login prompt, `Password: `, then a shell.
    static func board() -> ScriptedDevice {
        ScriptedDevice(
            onOpen: [Chunk("\r\nPoky (Yocto) 4.0 qemux86 ttyS0\r\n\r\nqemux86 login: ", after: .milliseconds(200))],
            rules: [
                .init(on: "root\n", send: [Chunk("root\r\n"), Chunk("Password: ", after: .milliseconds(50))]),
                .init(on: "secret\n", send: [Chunk("\r\n"), Chunk("root@qemux86:~# ", after: .milliseconds(50))]),
                .init(on: "uname\n", send: [Chunk("uname\r\nLinux\r\nroot@qemux86:~# ")]),
            ])
    }

    /// The login of the example: each expect matches its own prompt, `root` and
    /// `secret` end when the next prompt comes (no timeout), and no line holds an
    /// old prompt.
    @Test func luaLogsIn() async throws {
        let harness = try Harness([(nil, Self.board())])
        let summary = try await harness.run(
            """
            device.expect("login: ")
            device.send("root")
            device.expect("Password: ")
            device.send("secret")
            local prompt = device.expect("(%S+)# $")
            check(prompt == "root@qemux86:~# ", "the whole prompt: " .. tostring(prompt))
            device.send("uname")
            local _, kernel = device.expect("^(Linux)$")
            check(kernel == "Linux", "uname")
            """, timeout: .seconds(5))
        #expect(summary.outcome == .passed, "\(harness.view.checks) \(harness.view.problems)")
        #expect(summary.passed == 6)
        #expect(
            harness.view.checks.prefix(3).map(\.actual) == [["qemux86 login: "], ["Password: "], ["root@qemux86:~# "]])
        let events = harness.view.events(of: nil)
        let lines = events.compactMap { event -> String? in
            switch event {
            case .notification(let line, _): line.text
            case .lateReply(_, let lines, _): lines.map(\.text).joined(separator: "|")
            default: nil
            }
        }
        #expect(!lines.contains { $0.contains("login:") || $0.contains("Password:") }, "\(lines)")
        let outcomes = events.compactMap { if case .exchanged(let exchange) = $0 { exchange } else { nil } }
        #expect(outcomes.map(\.command) == ["root", "secret", "uname"])
        #expect(outcomes.allSatisfy { if case .reply = $0.outcome { true } else { false } }, "\(outcomes)")
        #expect(
            events.contains { if case .pendingText(let line) = $0 { line.text == "qemux86 login: " } else { false } })
    }

    /// A match inside the pending text consumes up to its end only: the rest can be
    /// matched next, and the line, when it ends, holds only what was not consumed.
    @Test func luaConsumesUpToTheEndOfTheMatch() async throws {
        let device = ScriptedDevice(
            onOpen: [Chunk("step 1 of 2: ok; step 2 of 2: ", after: .milliseconds(100))],
            rules: [.init(on: "go\n", send: [Chunk("done\r\n")])])
        let harness = try Harness([(nil, device)])
        let summary = try await harness.run(
            """
            local _, first = device.expect("step (%d)")
            local _, second = device.expect("step (%d)")
            check(first == "1" and second == "2", tostring(first) .. " " .. tostring(second))
            device.send("go")
            local line = device.expect("done")
            check(line == " of 2: done", tostring(line))
            """, timeout: .seconds(5))
        #expect(summary.outcome == .passed, "\(harness.view.checks) \(harness.view.problems)")
    }
}
