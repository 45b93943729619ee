import Foundation
import Glibc
import Testing

/// tether against a real U-Boot 2023.01 under QEMU (``UBootBoard``): the boot log from
/// power-on, an image put into its memory by `loady` (YMODEM) and `loadx` (XMODEM),
/// checked by U-Boot's own `crc32`, and the prompt dialect's rules on a real console.
@Suite(.serialized) struct UBootEndToEndTests {
    /// Where `loady` and `loadx` put the image: `${loadaddr}` of the qemu_arm build.
    static let loadAddress = "0x40200000"

    /// 64 KiB of seeded bytes, the same on every run.
    static let image = TransferEndToEndTests.data(65_536, seed: 23)

    /// `monitor` opened before power-on shows the boot log from its first line.
    @Test func bootLogFromPowerOn() throws {
        let board = try UBootBoard()
        let monitor = try Subprocess("tether", ["monitor", board.console])
        #expect(waitUntil { monitor.stderrSoFar.contains("connected to") }, "\(monitor.stderrSoFar)")
        board.powerOn()
        #expect(
            monitor.waitForOutput(containing: "Hit any key to stop autoboot", timeout: 60), "\(monitor.stdoutSoFar)")
        monitor.send(SIGINT)
        let result = monitor.wait(timeout: 20)
        #expect(result.status == 130)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("U-Boot 2023.01") }, "\(result.stdout)")
        #expect(lines.contains("DRAM:  128 MiB"), "\(result.stdout)")
    }

    /// `monitor --until '^=> '` opened before power-on ends by itself, exit 0, at U-Boot's
    /// prompt (which has no line end), with the boot log before it; the countdown shows
    /// the digit its backspaces leave.
    @Test func monitorUntilThePromptCapturesTheBootLog() throws {
        let board = try UBootBoard()
        let monitor = try Subprocess("tether", ["monitor", board.console, "--until", "^=> "])
        #expect(waitUntil { monitor.stderrSoFar.contains("connected to") }, "\(monitor.stderrSoFar)")
        board.powerOn()
        let result = monitor.wait(timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains { $0.hasPrefix("U-Boot 2023.01") }, "\(result.stdout)")
        #expect(lines.contains("Hit any key to stop autoboot:  0 "), "\(result.stdout)")
        #expect(!result.stdout.contains("\\x08"), "\(result.stdout)")
        #expect(lines.last { !$0.isEmpty } == "=> ", "\(result.stdout)")
    }

    /// `tether send --command loady` puts the image where U-Boot's `crc32` finds it whole.
    @Test func loadyTakesTheImage() throws {
        try load(with: "loady", protocol: "ymodem")
    }

    /// The same by `loadx` and XMODEM-1K.
    @Test func loadxTakesTheImage() throws {
        try load(with: "loadx", protocol: "xmodem-1k")
    }

    /// One Lua script puts the image in with `loady` and checks U-Boot's `crc32` of it,
    /// in the same session.
    @Test func luaLoadsAndChecksTheImage() throws {
        let board = try UBootBoard()
        let folder = try TemporaryFolder()
        try Self.image.write(to: folder.url.appendingPathComponent("image.bin"))
        let script = """
            local ok, err = device.send_file("\(folder.path("image.bin"))", { command = "loady \(Self.loadAddress)" })
            check(ok == true, "sent: " .. tostring(err))
            sleep(300)
            local reply = device.query("crc32 \(Self.loadAddress) 10000", 10000)
            local crc = reply and table.concat(reply, " "):match("==> (%x+)")
            check(crc == "\(try zlibCRC32(Self.image))", "crc32 " .. tostring(crc))
            """
        try script.write(toFile: folder.path("load.lua"), atomically: true, encoding: .utf8)
        board.powerOn()
        #expect(board.waitUntilRunsCommands(), "U-Boot never ran a command")
        let result = try Subprocess.run(
            "tether",
            [
                "run", folder.path("load.lua"), "--port", board.console, "--dialect", "prompt", "--prompt",
                UBootBoard.prompt,
            ],
            timeout: 120)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 passed, 0 failed"), "\(result.stdout)")
    }

    /// Output lines that begin with U-Boot's prompt do not end the reply (docs/DIALECTS.md,
    /// "`prompt`"): ten `echo "=> n"` in one command line come back whole, and the next
    /// command gets its own reply.
    @Test func outputLinesBeginningWithThePromptDoNotEndTheReply() throws {
        let board = try UBootBoard()
        board.powerOn()
        #expect(board.waitUntilRunsCommands(), "U-Boot never ran a command")
        let echoes = (1...10).map { "echo \"=> step \($0)\"" }.joined(separator: "; ")
        let result = try Subprocess.run(
            "tether",
            ["query", board.console, "--dialect", "prompt", "--format", "json", "--timeout", "5000", echoes]
                + ["echo next"], timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let replies = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "reply" }
        #expect(replies.map { $0["lines"] as? [String] } == [(1...10).map { "=> step \($0)" }, ["next"]])
    }

    /// U-Boot's `sleep 2` reads and discards what is typed while it runs: after the
    /// 1000 ms timeout, `echo next` waits for the prompt and gets `next`.
    @Test func theCommandAfterATimeoutWaitsForThePrompt() throws {
        let board = try UBootBoard()
        board.powerOn()
        #expect(board.waitUntilRunsCommands(), "U-Boot never ran a command")
        let result = try Subprocess.run(
            "tether",
            ["query", board.console, "--dialect", "prompt", "--format", "json", "--timeout", "1000"]
                + ["sleep 2", "echo next"], timeout: 60)
        #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        let replies = records.filter { $0["type"] as? String == "reply" }
        #expect(replies.map { $0["lines"] as? [String] } == [["next"]], "\(result.stdout)")
        #expect(records.contains { $0["type"] as? String == "late_reply" && $0["command"] as? String == "sleep 2" })
    }

    /// The first query after `tether send --command 'loady 0x42000000'` of a 100 KiB image
    /// gets U-Boot's CRC of it, as zlib computes it: the rest of the transfer's summary
    /// (`## Total Size …`, `## Start Addr …`, its prompt), which comes after the command is
    /// written and before its echo, is earlier output, not the reply (docs/DIALECTS.md,
    /// "`prompt`").
    @Test func loadyThenCrc32GivesTheCRCOnTheFirstQuery() throws {
        let board = try UBootBoard()
        let folder = try TemporaryFolder()
        let image = TransferEndToEndTests.data(102_400, seed: 29)
        try image.write(to: folder.url.appendingPathComponent("fw.bin"))
        board.powerOn()
        #expect(board.waitUntilRunsCommands(), "U-Boot never ran a command")
        let sent = try Subprocess.run(
            "tether", ["send", board.console, "--command", "loady 0x42000000", folder.path("fw.bin")], timeout: 120)
        #expect(sent.status == 0, "\(sent.stderr)")
        let result = try Subprocess.run(
            "tether",
            ["query", board.console, "--dialect", "prompt", "--format", "json", "--timeout", "10000"]
                + ["crc32 0x42000000 0x19000"], timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        let replies = records.filter { $0["type"] as? String == "reply" }.map { $0["lines"] as? [String] }
        #expect(replies == [["crc32 for 42000000 ... 42018fff ==> \(try zlibCRC32(image))"]], "\(result.stdout)")
    }

    private func load(with command: String, protocol kind: String) throws {
        let board = try UBootBoard()
        let folder = try TemporaryFolder()
        try Self.image.write(to: folder.url.appendingPathComponent("image.bin"))
        board.powerOn()
        #expect(board.waitUntilRunsCommands(), "U-Boot never ran a command")
        let sent = try Subprocess.run(
            "tether",
            [
                "send", board.console, "-p", kind, "--command", "\(command) \(Self.loadAddress)",
                folder.path("image.bin"),
            ],
            timeout: 120)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains("Sent 1 file by \(kind)"), "\(sent.stdout)")
        let crc = try board.crc32(at: Self.loadAddress, size: Self.image.count)
        #expect(crc == (try zlibCRC32(Self.image)))
    }
}
