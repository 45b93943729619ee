import Foundation
import Testing
import TetherSimulator

/// Text without a line end, through the built CLI and libserialport against a pty:
/// `monitor` reports it as it grows (docs/JSON.md, "Pending text").
@Suite struct PendingTextEndToEndTests {
    typealias Chunk = ScriptedDevice.Chunk

    /// A flashing tool: `Erasing flash: `, a `.` every 300 ms ten times, `done\r\n`.
    static func flashingTool() -> ScriptedDevice {
        ScriptedDevice(
            onOpen: [Chunk("Erasing flash: ", after: .milliseconds(300))]
                + (1...10).map { _ in Chunk(".", after: .milliseconds(300)) }
                + [Chunk("done\r\n", after: .milliseconds(300))])
    }

    /// `monitor --format json`: `pending_text` records that grow by the dots, then the
    /// whole line once as a notification.
    @Test func monitorWritesPendingTextRecords() throws {
        let simulator = try Simulator(device: Self.flashingTool())
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["monitor", simulator.devicePath, "--count", "1", "--format", "json"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try JSONLines.parse(result.stdout)
        let pending = objects.filter { $0["type"] as? String == "pending_text" }.compactMap { $0["text"] as? String }
        let notifications = objects.filter { $0["type"] as? String == "notification" }.compactMap {
            $0["line"] as? String
        }
        #expect(notifications == ["Erasing flash: ..........done"])
        // A loaded machine may merge two dots into one report, never reorder them.
        #expect(pending.first == "Erasing flash: ", "\(pending)")
        #expect(pending.last == "Erasing flash: ..........", "\(pending)")
        #expect(pending.count >= 6, "\(pending)")
        #expect(zip(pending, pending.dropFirst()).allSatisfy { $1.hasPrefix($0) && $1.count > $0.count })
        let types = objects.compactMap { $0["type"] as? String }
        #expect(types.last == "notification", "nothing is pending after the line: \(types)")
    }

    /// `monitor` writes its text to this file, as `monitor … > FILE` (or `| tee FILE`)
    /// does; the file's text, and the result.
    private func monitorToAFile(_ device: ScriptedDevice, _ arguments: [String]) throws -> (Subprocess.Result, String) {
        let simulator = try Simulator(device: device)
        defer { simulator.stop() }
        let folder = try TemporaryFolder()
        let file = folder.path("boot.log")
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let result = try Subprocess.run(
            path: "/bin/sh",
            ["-c", #"out="$0"; exec "$@" > "$out""#, file, tether, "monitor", simulator.devicePath]
                + arguments, timeout: 120)
        return (result, try String(contentsOfFile: file, encoding: .utf8))
    }

    /// The text view to a file: the line that came in eleven pieces is there once, as
    /// it came, with no `[pending]` copies.
    @Test func monitorToAFileWritesEachLineOnce() throws {
        let (result, text) = try monitorToAFile(Self.flashingTool(), ["--count", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(text == "Erasing flash: ..........done\n")
    }

    /// U-Boot's autoboot countdown, a second between digits: text shows the digit the
    /// backspaces leave, never `\x08`; JSON keeps the bytes.
    @Test func monitorAppliesBackspacesInTextOnly() throws {
        let countdown = ScriptedDevice(
            onOpen: [Chunk("U-Boot 2023.01\r\nHit any key to stop autoboot:  2 ", after: .milliseconds(200))]
                + [
                    Chunk("\u{08}\u{08}\u{08} 1 ", after: .milliseconds(300)),
                    Chunk("\u{08}\u{08}\u{08} 0 \r\n", after: .milliseconds(300)),
                ])
        let (result, text) = try monitorToAFile(countdown, ["--count", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "U-Boot 2023.01", "\(lines)")
        #expect(lines.last == "Hit any key to stop autoboot:  0 ", "\(lines)")
        #expect(!text.contains("\\x08"), "\(text)")
        let simulator = try Simulator(device: countdown)
        defer { simulator.stop() }
        let json = try Subprocess.run(
            "tether", ["monitor", simulator.devicePath, "--count", "2", "--format", "json"], timeout: 120)
        let notifications = try JSONLines.parse(json.stdout).filter { $0["type"] as? String == "notification" }
        #expect(
            notifications.last?["line"] as? String
                == "Hit any key to stop autoboot:  2 \u{08}\u{08}\u{08} 1 \u{08}\u{08}\u{08} 0 ")
    }
}

/// `expect` and query-file waits on prompts without a line end, through `tether run`
/// against a board's serial console on a pty (docs/SCRIPTING.md).
@Suite struct PromptWaitEndToEndTests {
    typealias Chunk = ScriptedDevice.Chunk

    /// A Yocto board: the login prompt, `Password: `, then a shell whose `uname`
    /// prints `Linux`.
    static func board() -> ScriptedDevice {
        ScriptedDevice(
            onOpen: [Chunk("\r\nPoky (Yocto) 4.0 qemux86 ttyS0\r\n\r\nqemux86 login: ", after: .milliseconds(300))],
            rules: [
                .init(on: "root\n", send: [Chunk("root\r\n"), Chunk("Password: ", after: .milliseconds(50))]),
                .init(on: "secret\n", send: [Chunk("\r\n"), Chunk("root@qemux86:~# ", after: .milliseconds(50))]),
                .init(on: "uname\n", send: [Chunk("uname\r\nLinux\r\nroot@qemux86:~# ")]),
            ])
    }

    private func run(_ name: String, _ script: String) throws -> (Subprocess.Result, [[String: Any]]) {
        let folder = try TemporaryFolder()
        let path = folder.path(name)
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let simulator = try Simulator(device: Self.board())
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["run", path, "--port", simulator.devicePath, "--format", "json", "--timeout", "5000"],
            timeout: 120)
        return (result, try JSONLines.parse(result.stdout))
    }

    private func checks(_ objects: [[String: Any]]) -> [(String, String, [String])] {
        objects.filter { $0["type"] as? String == "check" }.map {
            ($0["description"] as? String ?? "", $0["status"] as? String ?? "", $0["actual"] as? [String] ?? [])
        }
    }

    /// No line a run reports holds a prompt a wait consumed.
    private func linesHoldNoOldPrompt(_ objects: [[String: Any]]) -> Bool {
        let lines = objects.flatMap { object -> [String] in
            [object["line"] as? String].compactMap { $0 } + (object["lines"] as? [String] ?? [])
        }
        return !lines.contains { $0.contains("login:") || $0.contains("Password:") }
    }

    @Test func luaLogsInOnAPromptWithoutALineEnd() throws {
        let (result, objects) = try run(
            "login.lua",
            """
            device.expect("login: ")
            device.send("root")
            device.expect("Password: ")
            device.send("secret")
            device.expect("# $")
            device.send("uname")
            device.expect("^Linux$")
            """)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let checks = checks(objects)
        #expect(checks.map(\.1) == ["passed", "passed", "passed", "passed"], "\(checks)")
        #expect(checks.map(\.2) == [["qemux86 login: "], ["Password: "], ["root@qemux86:~# "], ["Linux"]])
        #expect(linesHoldNoOldPrompt(objects), "\(result.stdout)")
        #expect(objects.filter { $0["type"] as? String == "timeout" }.isEmpty, "\(result.stdout)")
        #expect(objects.contains { $0["type"] as? String == "pending_text" && $0["text"] as? String == "Password: " })
    }

    @Test func queryFileLogsInWithWaitLines() throws {
        let (result, objects) = try run(
            "login.txt",
            """
            =~ login: $
            root
            =~ Password: $
            secret
            =~ # $
            uname =~ ^Linux$
            """)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let checks = checks(objects)
        #expect(
            checks.map(\.0) == ["=~ login: $", "=~ Password: $", "root", "=~ # $", "secret", "uname =~ ^Linux$"],
            "\(checks)")
        #expect(checks.allSatisfy { $0.1 == "passed" }, "\(checks)")
        #expect(checks.first?.2 == ["qemux86 login: "])
        #expect(checks.last?.2 == ["Linux"])
        #expect(linesHoldNoOldPrompt(objects), "\(result.stdout)")
    }

    /// A wait that nothing matches times out like a line without a reply (exit 75).
    @Test func queryFileWaitTimesOut() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("wait.txt")
        try "=~ ^never$\n".write(toFile: path, atomically: true, encoding: .utf8)
        let simulator = try Simulator(device: Self.board())
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["run", path, "--port", simulator.devicePath, "--timeout", "800"], timeout: 120)
        #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("TIMEOUT") && result.stdout.contains("=~ ^never$"), "\(result.stdout)")
        #expect(result.stdout.contains("nothing received matched within 800 ms"), "\(result.stdout)")
    }

    /// A trial's script timed out (exit 75) under the prompt dialect: `version`'s
    /// reply had taken the prompt `expect` waits for. The prompt that ended the reply
    /// is still there for it.
    @Test func luaExpectsThePromptThatEndedTheReply() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("pc.lua")
        try "device.send(\"version\")\ndevice.expect(\"=> $\")\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Subprocess.run(
            "tether", ["run", path, "--sim", "--profile", "prompt-console"], timeout: 120)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("pc.lua:2  expect \"=> $\"") && result.stdout.contains("PASS"), "\(result.stdout)")
    }
}
