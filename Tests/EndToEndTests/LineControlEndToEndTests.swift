import Foundation
import Testing
import TetherSimulator

/// What tether does to a UART from Lua, through the real CLI, libserialport and a pty
/// (docs/SCRIPTING.md, "Modem lines, breaks and baud rate"): a pty has no modem lines
/// and ignores a break, so the simulator sees them as tether's pty compatibility layer
/// announces them (Simulator/README.md, "Modem lines and breaks").
@Suite struct LineControlEndToEndTests {
    /// Runs `script` (Lua, from standard input) against `device` on a pty, as JSON.
    private func run(
        _ script: String, on device: any SimulatedDevice, _ arguments: [String] = []
    ) throws -> (result: Subprocess.Result, records: [[String: Any]]) {
        let simulator = try Simulator(device: device)
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--port", simulator.devicePath, "--format", "json"] + arguments,
            stdin: script, timeout: 120)
        return (result, try JSONLines.parse(result.stdout))
    }

    private func records(_ records: [[String: Any]], type: String) -> [[String: Any]] {
        records.filter { $0["type"] as? String == type }
    }

    /// esptool's SYNC command as a Lua expression: SLIP, command 0x08, 36 bytes of
    /// 07 07 12 20 and 32 × 0x55.
    private static let sync =
        #""\xc0\x00\x08\x24\x00\x00\x00\x00\x00\x07\x07\x12\x20" .. string.rep("\x55", 32) .. "\xc0""#

    /// esptool's classic reset takes the board into its ROM loader, which answers SYNC.
    @Test func esptoolClassicResetReachesTheLoaderSync() throws {
        let board = AutoResetBoard()
        let script = """
            assert(device.reset("esptool-classic"))
            device.expect("waiting for download", 3000)
            device.discard_input()
            device.write(\(Self.sync))
            local reply = device.read(12, 3000)
            check(reply == "\\xc0\\x01\\x08\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\xc0", "SYNC answered")
            """
        let (result, records) = try run(script, on: board)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(board.boots == [.loader])
        let sequence = try #require(self.records(records, type: "line_sequence").first)
        #expect(sequence["name"] as? String == "esptool-classic")
        #expect((sequence["steps"] as? [[String: Any]])?.count == 5)
        let set = self.records(records, type: "lines_set")
        #expect(set.first?["dtr"] as? Bool == false)
        #expect(set.count == 5, "\(set)")
    }

    /// A DTR pulse resets the board too, but with IO0 high: the application boots, and
    /// SYNC goes unanswered.
    @Test func theWrongSequenceBootsTheApplication() throws {
        let board = AutoResetBoard()
        let script = """
            device.set_lines{dtr = true, rts = true}
            assert(device.reset{{dtr = false, hold = 100}, {dtr = true}})
            device.expect("application started", 3000)
            device.discard_input()
            device.write(\(Self.sync))
            check(device.read(12, 500) == nil, "SYNC unanswered")
            """
        let (result, _) = try run(script, on: board)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(board.boots == [.application], "\(board.boots)")
    }

    /// A break sent from Lua between two commands reaches the device in its place, held
    /// for about its length.
    @Test func aBreakFromLuaMidSessionIsSeenByTheDevice() throws {
        let device = TimestampingDevice(
            ScriptedDevice(rules: [
                .init(on: "one\n", send: [.init("1\n")]), .init(on: "two\n", send: [.init("2\n")]),
            ]))
        let script = """
            check(device.query("one")[1] == "1")
            assert(device.send_break(300))
            check(device.query("two")[1] == "2")
            """
        let (result, records) = try run(script, on: device)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let breaks = device.signals.filter {
            if case .breakSignal = $0.signal { true } else { false }
        }
        try #require(breaks.count == 2, "\(device.signals)")
        #expect(breaks.map(\.signal) == [.breakSignal(isOn: true), .breakSignal(isOn: false)])
        let held = breaks[1].time.timeIntervalSince(breaks[0].time)
        print("break held \(Int(held * 1000)) ms on the simulator's side (asked: 300 ms)")
        #expect(held > 0.25, "\(held) s")
        let arrivals = device.arrivals
        let one = try #require(arrivals.first { $0.bytes.contains(UInt8(ascii: "o")) })
        let two = try #require(arrivals.last { $0.bytes.contains(UInt8(ascii: "w")) })
        #expect(one.time <= breaks[0].time && breaks[1].time <= two.time, "the break is out of order")
        #expect(self.records(records, type: "lines_set").compactMap { $0["break"] as? Bool } == [true, false])
    }
}

/// A baud rate change within one session: `AT+IPR=921600`, then `dev.set_baud`, then
/// the next query answered at the new rate — on a pty, and through ser2net over RFC 2217
/// (`SET-BAUDRATE`, which ser2net applies to the pty).
@Suite(.serialized) struct BaudChangeEndToEndTests {
    private func run(
        _ script: String, on device: any SimulatedDevice, throughSer2net: Bool = false
    ) throws -> Subprocess.Result {
        let simulator = try Simulator(device: device)
        defer { simulator.stop() }
        let folder = try TemporaryFolder()
        let server = throughSer2net ? try Ser2net(exporting: simulator.devicePath, in: folder) : nil
        defer { server?.stop() }
        return try Subprocess.run(
            "tether",
            [
                "run", "-", "--lua", "--port", server?.telnetAddress ?? simulator.devicePath, "--format", "json",
                "--dialect", "at",
            ],
            stdin: script, timeout: 120)
    }

    @Test(arguments: [false, true]) func ipr921600ThenTheNextQueryAtTheNewRate(throughSer2net: Bool) throws {
        let modem = RateSwitchingModem(try SimulatorProfiles.device(named: "at-modem"))
        let script = """
            check(device.query("AT+IPR=921600"))
            local settings = device.set_baud(921600)
            check(settings == "921600 8N1", "read back: " .. tostring(settings))
            local reply = device.query("AT+CSQ", 3000)
            check(reply and reply[1] == "+CSQ: 20,99", "answered at the new rate")
            """
        let result = try run(script, on: modem, throughSer2net: throughSer2net)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(modem.rate == 921_600)
        let records = try JSONLines.parse(result.stdout)
        let changed = try #require(records.first { $0["type"] as? String == "settings_changed" })
        #expect(changed["settings"] as? String == "921600 8N1")
    }

    /// Without the change the modem, now at 921600, does not understand the next query.
    @Test func withoutTheChangeTheNextQueryGoesUnanswered() throws {
        let modem = RateSwitchingModem(try SimulatorProfiles.device(named: "at-modem"))
        let script = """
            check(device.query("AT+IPR=921600"))
            local reply, err = device.query("AT+CSQ", 500)
            check(reply == nil and err.kind == "timeout", "no answer at the old rate")
            """
        let result = try run(script, on: modem)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}

/// `--reset NAME` on a device command and `reset` in a device file: the sequence runs
/// after the open, before anything is sent.
@Suite struct ResetOptionEndToEndTests {
    /// `tether monitor` on a simulated ESP32 board with `--reset sequence`, until a
    /// line matches `until`, in JSON.
    private func monitorBoard(reset sequence: String, until: String) throws -> (AutoResetBoard, Subprocess.Result) {
        let board = AutoResetBoard()
        let simulator = try Simulator(device: board)
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether",
            [
                "monitor", simulator.devicePath, "--reset", sequence, "--until", until, "--duration", "20",
                "--format", "json",
            ], timeout: 60)
        return (board, result)
    }

    @Test func monitorWithResetSeesTheLoaderBanner() throws {
        let (board, result) = try monitorBoard(reset: "esptool-classic", until: "waiting for download")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(board.boots == [.loader])
        let types = try JSONLines.types(result.stdout)
        #expect(types.prefix(2) == ["connected", "line_sequence"], "\(types)")
    }

    /// The application's boot log from its first byte: monitor reads from the open on,
    /// and the hard reset runs after it, so the ROM's first line is the first line shown
    /// and every byte of the banner is there, in order.
    @Test func monitorWithHardResetCapturesTheBootBannerFromItsFirstByte() throws {
        let (board, result) = try monitorBoard(reset: "esptool-hard-reset", until: "application started")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(board.boots == [.application])
        let records = try JSONLines.parse(result.stdout)
        let received = records.filter { $0["type"] as? String == "notification" }.map {
            ($0["line"] as? String ?? "")
                + String(decoding: hexBytes($0["line_eol_hex"] as? String ?? ""), as: UTF8.self)
        }
        // Blank lines are framing, not notifications: the banner less its empty line.
        #expect(
            received.joined() == AutoResetBoard.applicationBanner.replacingOccurrences(of: "\r\n\r\n", with: "\r\n"))
        #expect(records.compactMap { $0["type"] as? String }.prefix(2) == ["connected", "line_sequence"])
    }

    private func hexBytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).compactMap {
            UInt8(hex.dropFirst($0).prefix(2), radix: 16)
        }
    }

    @Test func aDeviceFileNamesItsOwnSequence() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("board.json")
        try #"{"reset": "D0|R1|W0.1|D1|R0|W0.05|D0"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let board = AutoResetBoard()
        let simulator = try Simulator(device: board)
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether",
            ["monitor", simulator.devicePath, "--device", file, "--until", "waiting for download", "--duration", "10"],
            timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(board.boots == [.loader])
        #expect(
            result.stderr.contains("line sequence D0|R1|W0.1|D1|R0|W0.05|D0: DTR=off, RTS=on 100 ms"),
            "\(result.stderr)")
    }

    @Test func anUnknownSequenceIsAUsageError() throws {
        let result = try Subprocess.run("tether", ["query", "/dev/null", "x", "--reset", "esptool-fast"])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("'esptool-fast' is neither a reset sequence (esptool-classic"), "\(result.stderr)")
    }
}

/// `--rs485 BEFORE,AFTER` on a pty: the pty has no RS-485 mode (TIOCSRS485 answers
/// ENOTTY), so tether raises RTS around each write; the simulator sees RTS rise, the
/// bytes, RTS fall, and the delays are measured there (printed, not asserted tightly).
@Suite struct RS485EndToEndTests {
    @Test func rtsOnSendWithItsDelaysMeasuredOnTheSimulatorSide() throws {
        let device = TimestampingDevice(ScriptedDevice(rules: [.init(on: "ping\n", send: [.init("pong\n")])]))
        let simulator = try Simulator(device: device)
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["query", simulator.devicePath, "--rs485", "20,30", "ping", "--format", "json"], timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        let note = records.compactMap { $0["message"] as? String }.first { $0.hasPrefix("RS-485") }
        #expect(note?.contains("tether raises RTS around each write, 20 ms before, 30 ms after") == true, "\(records)")
        let rts = device.signals.compactMap { signal -> (Date, Bool)? in
            if case .modemLines(_, let rts) = signal.signal { return (signal.time, rts) }
            return nil
        }
        let raised = try #require(rts.last { $0.1 }, "\(device.signals)")
        let dropped = try #require(rts.last { !$0.1 && $0.0 > raised.0 }, "\(device.signals)")
        let arrival = try #require(device.arrivals.first { $0.bytes.contains(UInt8(ascii: "p")) })
        let before = arrival.time.timeIntervalSince(raised.0) * 1000
        let after = dropped.0.timeIntervalSince(arrival.time) * 1000
        print(
            String(
                format:
                    "RS-485 on the simulator's side: RTS up %.1f ms before the bytes, down %.1f ms after (asked 20, 30)",
                before, after))
        #expect(before > 10 && after > 15, "before \(before) ms, after \(after) ms")
    }
}

/// Query-file directives: `@reset`, `@baud`, `@break`, `@lines` act on the port
/// between the lines, in order.
@Suite struct QueryFileDirectiveEndToEndTests {
    @Test func aQueryFileResetsTheBoardAndChangesTheRate() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("modem.txt")
        try """
        @lines dtr=on rts=on
        AT+IPR=921600 == OK
        @baud 921600
        @break 100
        AT+CSQ =~ ^\\+CSQ: 20
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let modem = TimestampingDevice(RateSwitchingModem(try SimulatorProfiles.device(named: "at-modem")))
        let simulator = try Simulator(device: modem)
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["run", file, "--port", simulator.devicePath, "--dialect", "at", "--format", "json"], timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let checks = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "check" }
        #expect(
            checks.map { $0["status"] as? String } == ["passed", "passed", "passed", "passed", "passed"], "\(checks)")
        #expect(checks[2]["actual"] as? [String] == ["921600 8N1"])
        #expect(modem.signals.contains { $0.signal == .breakSignal(isOn: true) })
    }

    @Test func anUnknownDirectiveIsAScriptError() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("bad.txt")
        try "@rest esptool-classic\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try Subprocess.run("tether", ["run", file, "--sim"], timeout: 60)
        #expect(result.status == 65)
        #expect(result.stderr.contains("bad.txt:1: unknown directive '@rest'"), "\(result.stderr)")
    }
}

/// Over `tcp://` there are no modem lines: a reset from Lua returns `nil` and says so,
/// and the script goes on.
@Suite struct RawTCPLineControlEndToEndTests {
    @Test func aResetOverRawTCPIsRefusedClearly() throws {
        let folder = try TemporaryFolder()
        let simulator = try Simulator()
        defer { simulator.stop() }
        let server = try Ser2net(exporting: simulator.devicePath, in: folder)
        defer { server.stop() }
        let script = """
            local ok, err = device.reset("esptool-classic")
            check(ok == nil and err:find("use rfc2217://", 1, true), tostring(err))
            check(device.query("*IDN?"))
            """
        let result = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--port", server.rawAddress, "--format", "json"], stdin: script,
            timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}

/// `tether-sim --board esp32`: the board a person can try `--reset` against.
@Suite struct SimulatedBoardEndToEndTests {
    @Test func tetherSimServesTheESP32Board() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("esp")
        let simulator = try Subprocess("tether-sim", ["--board", "esp32", "--link", link])
        defer {
            simulator.send(SIGTERM)
            _ = simulator.wait()
        }
        #expect(simulator.waitForOutput(containing: link))
        let loader = try Subprocess.run(
            "tether",
            ["monitor", link, "--reset", "esptool-classic", "--until", "waiting for download", "--duration", "10"],
            timeout: 60)
        #expect(loader.status == 0, "\(loader.stdout)\(loader.stderr)")
        #expect(loader.stdout.contains("boot:0x3 (DOWNLOAD_BOOT"), "\(loader.stdout)")
        let application = try Subprocess.run(
            "tether", ["monitor", link, "--reset", "dtr-pulse", "--until", "application started", "--duration", "10"],
            timeout: 60)
        #expect(application.status == 0, "\(application.stdout)\(application.stderr)")
        #expect(application.stdout.contains("boot:0x13 (SPI_FAST_FLASH_BOOT)"), "\(application.stdout)")
        // On a fresh open DTR is on: esptool's own R1|W0.1|R0 then never pulled EN low
        // (both lines asserted cancel in the auto-reset circuit), and monitor saw nothing.
        let hardReset = try Subprocess.run(
            "tether",
            ["monitor", link, "--reset", "esptool-hard-reset", "--until", "application started", "--duration", "10"],
            timeout: 60)
        #expect(hardReset.status == 0, "\(hardReset.stdout)\(hardReset.stderr)")
        #expect(hardReset.stdout.contains("boot:0x13 (SPI_FAST_FLASH_BOOT)"), "\(hardReset.stdout)")
    }
}
