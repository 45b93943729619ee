import Foundation
import Testing
import TetherSimulator

/// The `prompt` dialect against consoles as they really are, through the CLI and the
/// libserialport path (docs/DIALECTS.md, "`prompt`"): output lines that begin with the
/// prompt, and a console deaf while busy (text waiting at open:
/// ``PendingInputEndToEndTests``).
@Suite struct PromptConsoleEndToEndTests {
    /// The 41-line file the console's `cat` prints: most lines begin with `lead`.
    static func file(lead: String) -> [String] {
        ["\(lead)/etc/example.conf: written by hand"]
            + (1...36).map { "\(lead)option \($0): see the manual, section \($0 % 7)" }
            + ["", "\(lead)the end", "enabled=yes", "level=3"]
    }

    /// A simulator profile of a console with `prompt` whose `cat /etc/example.conf`
    /// prints ``file(lead:)``, and whose `echo TEXT` prints TEXT.
    static func profile(prompt: String, lead: String) throws -> [String: Any] {
        [
            "name": "console", "description": "a console whose output lines begin with its prompt",
            "identity": "console", "dialect": "prompt", "prompt": prompt, "input": "any", "lineEnd": "\r\n",
            "echo": ["initial": true, "end": "\r\n"],
            "commands": [
                ["match": "cat /etc/example.conf", "reply": file(lead: lead)],
                ["regex": "^echo (.*)$", "reply": ["{1}"]],
            ],
            "errors": ["reply": "{message}", "unknownCommand": ["code": 1, "message": "{line}: not found"]],
        ]
    }

    /// Every byte of the output is its own write (`--split 1`, up to 2 ms apart), so
    /// reads end at every byte, right after each line's leading prompt text too: the
    /// file comes whole, and the next command gets its own reply.
    @Test(arguments: [
        ("# ", "# ", [String]()), ("=> ", "=> ", []),
        ("root@box:/etc# ", "root@box:~# ", ["--prompt-regex", "^[a-z]+@[^:]+:[^#$]*[#$] $"]),
    ])
    func aFileWhoseLinesBeginWithThePromptComesWhole(prompt: String, lead: String, options: [String]) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("console.json")
        try JSONSerialization.data(withJSONObject: try Self.profile(prompt: prompt, lead: lead))
            .write(to: URL(fileURLWithPath: path))
        let result = try Subprocess.run(
            "tether",
            ["query", "--sim", "--profile", path, "--split", "1", "--split-gap", "2", "--format", "json"]
                + ["--timeout", "20000"] + options + ["cat /etc/example.conf", "echo next"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        let replies = records.filter { $0["type"] as? String == "reply" }
        #expect(replies.map { $0["lines"] as? [String] } == [Self.file(lead: lead), ["next"]])
        #expect(replies.allSatisfy { $0["in_doubt"] == nil })
        #expect(records.filter { $0["type"] as? String == "notification" }.isEmpty)
    }

    /// U-Boot's `sleep 2` discards what is typed while it runs: after the 1000 ms
    /// timeout, `echo next` waits for the prompt and gets `next`.
    @Test func theCommandAfterATimeoutWaitsForThePrompt() throws {
        let console = BusyConsole()
        let simulator = try Simulator(device: console)
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether",
            ["query", simulator.devicePath, "--dialect", "prompt", "--format", "json", "--timeout", "1000"]
                + ["sleep 2", "echo next"])
        let records = try JSONLines.parse(result.stdout)
        let replies = records.filter { $0["type"] as? String == "reply" }
        #expect(replies.map { $0["command"] as? String } == ["echo next"], "\(result.stdout)")
        #expect(replies.first?["lines"] as? [String] == ["next"])
        #expect(records.filter { $0["type"] as? String == "timeout" }.map { $0["command"] as? String } == ["sleep 2"])
        #expect(
            records.filter { $0["type"] as? String == "late_reply" }.map { $0["command"] as? String } == ["sleep 2"])
        #expect(console.discarded.isEmpty)
        #expect(result.status == 75)
    }
}
