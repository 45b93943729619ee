import Foundation
import Testing
import TetherSimulator

/// The `prompt` dialect against consoles as they really are, through the CLI and the
/// libserialport path (docs/DIALECTS.md, "`prompt`"): output lines that begin with the
/// prompt, a console deaf while busy, replays of a boot log before the echo and of a
/// prompt's text inside a line (text waiting at open: ``PendingInputEndToEndTests``).
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

    /// Runs `tether query` against `device` with `options` and `commands`; returns the exit
    /// status, the reply lines and the notification lines.
    static func query(_ device: ScriptedDevice, _ options: [String], _ commands: [String]) throws -> (
        status: Int32, replies: [[String]?], notifications: [String?], output: String
    ) {
        let simulator = try Simulator(device: device)
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether",
            ["query", simulator.devicePath, "--dialect", "prompt", "--format", "json", "--timeout", "10000"]
                + options + commands)
        let records = try JSONLines.parse(result.stdout)
        return (
            result.status, records.filter { $0["type"] as? String == "reply" }.map { $0["lines"] as? [String] },
            records.filter { $0["type"] as? String == "notification" }.map { $0["line"] as? String },
            result.stdout + result.stderr
        )
    }

    /// An ESP32 reset as the port opened: it prints its boot log after the command is
    /// written, then MicroPython's `>>> `, then echoes the command. The reply is `2`; the
    /// boot log is notifications.
    @Test func aBootLogBeforeTheEchoIsNotTheReply() throws {
        let bootLog = [
            "ets Jun  8 2016 00:22:57", "rst:0x1 (POWERON_RESET),boot:0x13 (SPI_FAST_FLASH_BOOT)",
            "entry 0x4008067c", "MicroPython v1.22.0 on 2023-12-27; Generic ESP32 module with ESP32",
        ]
        let device = ScriptedDevice(rules: [
            .init(
                on: "print(1+1)\r",
                send: [
                    .init(
                        bootLog[0] + "\r\n\r\n" + bootLog[1] + "\r\n" + bootLog[2] + "\r\n", after: .milliseconds(100)),
                    .init(bootLog[3] + "\r\n>>> ", after: .milliseconds(250)),
                    .init("print(1+1)\r\n", after: .milliseconds(20)), .init("2\r\n>>> ", after: .milliseconds(5)),
                ])
        ])
        let (status, replies, notifications, output) = try Self.query(device, ["--prompt", ">>> "], ["print(1+1)"])
        #expect(status == 0, "\(output)")
        #expect(replies == [["2"]], "\(output)")
        #expect(notifications == bootLog, "\(output)")
    }

    /// A console whose echo is off, declared with `--no-echo`: the lines after the command
    /// are the reply.
    @Test func aConsoleDeclaredNotToEchoGetsItsLines() throws {
        let device = ScriptedDevice(rules: [.init(on: "ver\r", send: [.init("fw 1.2.3\r\n> ")])])
        let (status, replies, notifications, output) = try Self.query(device, ["--prompt", "> ", "--no-echo"], ["ver"])
        #expect(status == 0, "\(output)")
        #expect(replies == [["fw 1.2.3"]], "\(output)")
        #expect(notifications.isEmpty, "\(output)")
    }

    /// U-Boot's `crc32` prints `CRC32 for … ==> `, computes (60 ms), then the CRC: on a
    /// console that showed `=> ` alone, that `=> ` is no prompt, and `version` gets its own
    /// reply.
    @Test func thePromptsTextInsideALineDoesNotEndTheReply() throws {
        let crc32 = "crc32 0x42000000 0x19000"
        let device = ScriptedDevice(
            onOpen: [.init("=> ", after: .milliseconds(100))],
            rules: [
                .init(
                    on: crc32 + "\r",
                    send: [
                        // After the prompt shown at open, whenever the command came.
                        .init(crc32 + "\r\nCRC32 for 42000000 ... 42018fff ==> ", after: .milliseconds(150)),
                        .init("b2aff8d0\r\n=> ", after: .milliseconds(60)),
                    ]),
                .init(on: "version\r", send: [.init("version\r\nU-Boot 2023.01\r\n=> ")]),
            ])
        let (status, replies, notifications, output) = try Self.query(device, [], [crc32, "version"])
        #expect(status == 0, "\(output)")
        #expect(replies == [["CRC32 for 42000000 ... 42018fff ==> b2aff8d0"], ["U-Boot 2023.01"]], "\(output)")
        #expect(notifications.isEmpty, "\(output)")
    }
}
