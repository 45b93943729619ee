import Foundation
import Testing
import TetherSimulator

/// Bytes from Lua through the real CLI, libserialport and a pty (docs/SCRIPTING.md,
/// "Raw bytes"): Ctrl-C while a command runs, a bare Enter and a space, `+++` with guard
/// times, every byte value both ways, a bootloader's binary handshake.
@Suite struct LuaBytesEndToEndTests {
    typealias Chunk = ScriptedDevice.Chunk
    typealias Rule = ScriptedDevice.Rule

    /// Runs `script` (Lua, from standard input) against `device` on a pty, as JSON.
    private func run(
        _ script: String, on device: any SimulatedDevice, _ arguments: [String] = []
    ) throws -> (result: Subprocess.Result, records: [[String: Any]], seconds: Double) {
        let simulator = try Simulator(device: device)
        defer { simulator.stop() }
        let started = Date()
        let result = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--port", simulator.devicePath, "--format", "json"] + arguments,
            stdin: script, timeout: 120)
        return (result, try JSONLines.parse(result.stdout), Date().timeIntervalSince(started))
    }

    private func filter(_ records: [[String: Any]], type: String) -> [[String: Any]] {
        records.filter { $0["type"] as? String == type }
    }

    private static func time(of record: [String: Any]) -> Date? {
        let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return (record["time"] as? String).flatMap { try? format.parse($0) }
    }

    /// A console busy with a 20 s command prints its prompt only after Ctrl-C (or the
    /// 20 s): `write_now("\x03")` reaches it within 1 s although the command is in
    /// flight (--timeout 30000), and that command then ends with the console's answer —
    /// a reply, no timeout — long before 20 s.
    @Test func ctrlCReachesAConsoleWhileACommandRuns() throws {
        let console = TimestampingDevice(
            ScriptedDevice(rules: [
                Rule(on: "sleep 20\r", send: [Chunk("sleep 20\r\n"), Chunk("=> ", after: .seconds(20))]),
                Rule(on: [0x03], send: [Chunk("^C\r\n=> ")]),
            ]))
        let script = """
            device.send("sleep 20")
            sleep(500)
            device.write_now("\\x03")
            """
        let (result, records, seconds) = try run(
            script, on: console, ["--dialect", "prompt", "--timeout", "30000"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(seconds < 15, "the run waited for the 20 s command: \(seconds) s")
        let immediate = try #require(filter(records, type: "sent").first { $0["write"] as? String == "immediate" })
        #expect(immediate["command_hex"] as? String == "03")
        let arrival = try #require(console.arrivals.first { $0.bytes.contains(0x03) })
        let written = try #require(Self.time(of: immediate))
        let delay = arrival.time.timeIntervalSince(written)
        print("Ctrl-C reached the console \(Int(delay * 1000)) ms after write_now")
        #expect(delay > -0.002 && delay < 1.0, "\(delay) s")
        let reply = try #require(filter(records, type: "reply").first)
        #expect(reply["command"] as? String == "sleep 20")
        #expect(reply["lines"] as? [String] == ["^C"])
        #expect(filter(records, type: "timeout").isEmpty)
        #expect(console.received == Array("sleep 20\r\u{03}".utf8))
    }

    /// U-Boot's countdown: a single space stops it (`write(" ")`, no line end), then a
    /// bare Enter (`send("")`: the dialect's line end alone) gets a new prompt.
    @Test func aSpaceStopsAutobootAndABareEnterPrompts() throws {
        let board = TimestampingDevice(
            ScriptedDevice(
                onOpen: [Chunk("U-Boot 2024.01\r\nHit any key to stop autoboot:  3")],
                rules: [Rule(on: " ", send: [Chunk("\r\n=> ")]), Rule(on: "\r", send: [Chunk("\r\n=> ")])]))
        let script = """
            device.expect("autoboot:%s+%d$")
            device.write(" ")
            device.expect("=> $")
            device.send("")
            device.expect("=> $")
            """
        let (result, records, _) = try run(script, on: board, ["--dialect", "prompt"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(board.received == Array(" \r".utf8))
        let sent = filter(records, type: "sent").map { ($0["command"] as? String, $0["write"] as? String) }
        #expect(sent.map(\.0) == [" ", ""])
        #expect(sent.map(\.1) == ["raw", nil])
    }

    /// The same from a query file: `" "` is a command of one space, `""` the empty
    /// command (docs/SCRIPTING.md, "Query files").
    @Test func aQueryFileSendsASpaceAndABareEnter() throws {
        let board = TimestampingDevice(
            ScriptedDevice(rules: [Rule(on: " \r", send: [Chunk("\r\n=> ")]), Rule(on: "\r", send: [Chunk("\r\n=> ")])])
        )
        let simulator = try Simulator(device: board)
        defer { simulator.stop() }
        let queries = "\" \"\n=~ => $\n\"\"\n=~ => $\n"
        let result = try Subprocess.run(
            "tether", ["run", "-", "--port", simulator.devicePath, "--dialect", "prompt"], stdin: queries)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(board.received == Array(" \r\r".utf8))
    }

    /// `+++` with a second of silence either side and no line end gets a modem's `OK`;
    /// the same `+++` right after other bytes gets nothing (the modem checks its guard
    /// times: ≥ 900 ms of quiet before and after).
    @Test(arguments: [(true, "sleep(1000)"), (false, #"device.write_now("AT")"#)])
    func plusPlusPlusWithGuardTimesGetsOK(answered: Bool, before: String) throws {
        let script = """
            \(before)
            device.write_now("+++")
            sleep(1100)
            local line, err = device.expect("^OK$", 1000)
            check(\(answered ? "line" : "not line and err.kind == 'timeout'"), "OK only after the guard times")
            """
        let (result, records, _) = try run(script, on: GuardTimeModem())
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let immediate = filter(records, type: "sent").filter { $0["write"] as? String == "immediate" }
        #expect(immediate.last?["command"] as? String == "+++")
    }

    /// A modem in data mode after `ATD*99#` (a PPP frame with `OK` in it), that
    /// answers `+++` with `OK` a second later and `ATH` with `OK`.
    private static func onlineModem() -> ScriptedDevice {
        ScriptedDevice(rules: [
            Rule(
                on: "ATD*99#\r",
                send: [
                    Chunk("\r\nCONNECT 115200\r\n"),
                    Chunk([0x7E, 0xFF, 0x03, 0x0D, 0x0A] + Array("OK\r\n".utf8) + [0x7E], after: .milliseconds(100)),
                ]),
            Rule(on: "+++", send: [Chunk("\r\nOK\r\n", after: .milliseconds(1000))]),
            Rule(on: "ATH\r", send: [Chunk("\r\nOK\r\n")]),
        ])
    }

    /// docs/SCRIPTING.md's escape to command mode in data mode: `write_now("+++")`, then
    /// `expect("^OK$")` gets the modem's `OK` (also recorded as `command_mode`), and
    /// `ATH` then gets its own `OK`.
    @Test func theEscapeOKInDataModeIsExpected() throws {
        let script = """
            device.query("ATD*99#")
            sleep(1000)
            device.write_now("+++")
            sleep(1100)
            local line, err = device.expect("^OK$", 3000)
            check(line == "OK", "the escape's OK")
            local reply = device.query("ATH", 3000)
            check(reply ~= nil, "ATH answered in command mode")
            """
        let (result, records, _) = try run(script, on: Self.onlineModem(), ["--dialect", "at"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(filter(records, type: "check").allSatisfy { $0["status"] as? String == "passed" })
        #expect(filter(records, type: "command_mode").map { $0["line"] as? String } == ["OK"])
    }

    /// `send("+++")` queues a command, which waits for command mode — the modem stays in
    /// data mode — and `query("ATH", 3000)` after it times out, unsent, at its timeout,
    /// instead of waiting for ever.
    @Test func aQueryWaitingForCommandModeEndsAtItsTimeout() throws {
        let script = """
            device.query("ATD*99#")
            device.send("+++")
            local reply, err = device.query("ATH", 3000)
            check(not reply and err.kind == "timeout", "ATH timed out waiting for command mode")
            """
        let (result, records, seconds) = try run(
            script, on: Self.onlineModem(), ["--dialect", "at", "--timeout", "1000"])
        #expect(filter(records, type: "check").map { $0["status"] as? String } == ["passed"], "\(result.stdout)")
        #expect(seconds >= 3 && seconds < 20, "\(seconds) s")
    }

    /// All 256 byte values written raw come back from a loopback byte for byte
    /// (`read(256, 2000)`); `send("\x7f\xff\x00ABC")` goes out as `7f ff 00 41 42 43 0a`.
    @Test func everyByteValueRoundTripsFromLua() throws {
        let loopback = TimestampingDevice(EchoDevice())
        let script = """
            local all = {}
            for value = 0, 255 do all[#all + 1] = string.char(value) end
            all = table.concat(all)
            device.write(all)
            local back = device.read(256, 2000)
            check(back == all, "256 bytes back, byte for byte")
            device.discard_input()
            device.send("\\x7f\\xff\\x00ABC")
            """
        let (result, records, _) = try run(script, on: loopback)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(loopback.received == Array(0...255) + [0x7F, 0xFF, 0x00, 0x41, 0x42, 0x43, 0x0A])
        let raw = try #require(filter(records, type: "sent").first { $0["write"] as? String == "raw" })
        #expect(raw["command_hex"] as? String == (0...255).map { String(format: "%02x", $0) }.joined())
        #expect(filter(records, type: "check").map { $0["status"] as? String } == ["passed"])
    }

    /// An STM32 system bootloader's handshake: 0x7F, answered by ACK 0x79.
    @Test func bootloaderHandshake() throws {
        let bootloader = ScriptedDevice(onOpen: [Chunk("noise\r\n")], rules: [Rule(on: [0x7F], send: [Chunk([0x79])])])
        let script = """
            sleep(200)
            device.discard_input()
            device.write("\\x7f")
            check(device.read(1, 500) == "\\x79", "ACK")
            """
        let (result, records, _) = try run(script, on: bootloader)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(filter(records, type: "check").map { $0["status"] as? String } == ["passed"])
    }
}
