import Foundation
import Testing
import TetherSimulator

/// A cellular module's SMS text prompt and message bodies through the real CLI,
/// libserialport and a pty: the `at-modem` profile plays them (docs/DIALECTS.md, "SMS
/// text prompt", "Message bodies").
@Suite struct ModemEndToEndTests {
    /// The command with its text, written the same way on the command line (escapes),
    /// in a query file (escapes) and in Lua (Lua's own escapes).
    static let escapedCommand = #"AT+CMGW="+15551230000"\rHello from tether\x1a"#

    private func replies(_ result: Subprocess.Result) throws -> [[String: Any]] {
        try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "reply" }
    }

    /// `query`: the text goes out at `> `, and `+CMGW: 5` / `OK` are that exchange's
    /// reply; the text's echo is no notification.
    @Test func queryWritesAMessageAtThePrompt() throws {
        let result = try Subprocess.run(
            "tether",
            ["query", "--sim", "--profile", "at-modem", "--format", "json", "AT+CMGF=1", Self.escapedCommand])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let replies = try replies(result)
        #expect(replies.count == 2)
        #expect(replies.last?["lines"] as? [String] == ["+CMGW: 5"], "\(result.stdout)")
        #expect(replies.last?["final"] as? String == "OK")
        let notifications = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "notification" }
        #expect(notifications.isEmpty, "\(result.stdout)")
    }

    /// A query file line and a Lua `query` give the same exchange.
    @Test func aQueryFileAndLuaDoTheSame() throws {
        let file = try Subprocess.run(
            "tether", ["run", "-", "--sim", "--profile", "at-modem"], stdin: Self.escapedCommand + " == +CMGW: 5\n")
        #expect(file.status == 0, "\(file.stdout)\(file.stderr)")
        let lua = """
            local reply = assert(device.query('AT+CMGS="+15551230000"\\rHello from Lua\\x1a'))
            assert(reply[1] == "+CMGS: 7", reply[1])
            assert(reply.final == "OK")
            """
        let script = try Subprocess.run("tether", ["run", "-", "--lua", "--sim", "--profile", "at-modem"], stdin: lua)
        #expect(script.status == 0, "\(script.stdout)\(script.stderr)")
    }

    /// A module that prints the prompt as a bare `>` line, echo off, and refuses the
    /// text: the error is the exchange's reply (exit 1).
    @Test func aBarePromptLineAndARefusal() throws {
        let module = ScriptedDevice(rules: [
            .init(on: "AT+CMGS=\"+1555\"\r", send: [.init(">\r\n")]),
            .init(on: "Hi\u{1A}", send: [.init("\r\n+CMS ERROR: 304\r\n", after: .milliseconds(50))]),
        ])
        let simulator = try Simulator(device: module)
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether",
            ["query", simulator.devicePath, "--dialect", "at", "--format", "json", #"AT+CMGS="+1555"\rHi\x1a"#])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let replies = try replies(result)
        #expect(replies.first?["final"] as? String == "+CMS ERROR: 304", "\(result.stdout)")
    }

    /// The exact input: a message whose text is `ERROR` is part of the reply, which the
    /// module's `OK` ends (exit 0); the listing's `OK` body likewise.
    @Test func messageBodiesAreText() throws {
        let result = try Subprocess.run(
            "tether", ["query", "--sim", "--profile", "at-modem", "--format", "json", "AT+CMGR=1", "AT+CMGL=\"ALL\""])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let replies = try replies(result)
        #expect(
            replies.first?["lines"] as? [String] == [
                #"+CMGR: "REC UNREAD","+15551230000",,"26/11/30,09:15:00+04""#, "ERROR",
            ], "\(result.stdout)")
        #expect(replies.first?["final"] as? String == "OK")
        #expect((replies.last?["lines"] as? [String])?.count == 4, "\(result.stdout)")
        #expect((replies.last?["lines"] as? [String])?[1] == "OK")
    }

    /// The exact input on a pty: a body of three lines whose last reads `OK`, sent in
    /// pieces; the `OK` after the blank line is the final result code, and `AT` after
    /// it gets its own `OK`.
    @Test func aBodyOfSeveralLinesEndingInOK() throws {
        let header = #"+CMGR: "REC UNREAD","+31612345678",,"26/11/30,09:15:00+04""#
        let module = ScriptedDevice(rules: [
            .init(
                on: "AT+CMGR=1\r",
                send: [
                    .init("\r\n\(header)\r\nline one\r\nline two\r\nOK\r\n"),
                    .init("\r\nOK\r\n", after: .milliseconds(100)),
                ]),
            .init(on: "AT\r", send: [.init("\r\nOK\r\n")]),
        ])
        let simulator = try Simulator(device: module)
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["query", simulator.devicePath, "--dialect", "at", "--format", "json", "AT+CMGR=1", "AT"],
            timeout: 60)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let replies = try replies(result)
        #expect(replies.first?["lines"] as? [String] == [header, "line one", "line two", "OK"], "\(result.stdout)")
        #expect(replies.map { $0["final"] as? String } == ["OK", "OK"], "\(result.stdout)")
        #expect(try !JSONLines.types(result.stdout).contains("notification"), "\(result.stdout)")
    }

    /// Data mode: `ATD*99#` answered `CONNECT 115200`, then a PPP frame (CR, LF and `OK`
    /// inside it) and `NO CARRIER`: the frame is `data` (counted, hex), the return to
    /// command mode a `command_mode` record, and `AT` then gets its own `OK`.
    @Test func dataModeUntilNoCarrier() throws {
        let frame: [UInt8] = [0x7E, 0xFF, 0x03, 0xC0, 0x21, 0x0D, 0x0A, 0x4F, 0x4B, 0x0D, 0x0A, 0x7E]
        let module = ScriptedDevice(rules: [
            .init(
                on: "ATD*99#\r",
                send: [
                    .init(Array("\r\nCONNECT 115200\r\n".utf8) + frame),
                    .init("\r\nNO CARRIER\r\n", after: .milliseconds(300)),
                ]),
            .init(on: "AT\r", send: [.init("\r\nOK\r\n")]),
        ])
        let simulator = try Simulator(device: module)
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["query", simulator.devicePath, "--dialect", "at", "--format", "json", "ATD*99#", "AT"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        let data = records.filter { $0["type"] as? String == "data" }
        #expect(
            data.compactMap { $0["bytes_hex"] as? String }.joined() == "7eff03c0210d0a4f4b0d0a7e", "\(result.stdout)")
        #expect(data.compactMap { $0["length"] as? Int }.reduce(0, +) == 12)
        let back = records.filter { $0["type"] as? String == "command_mode" }
        #expect(back.first?["line"] as? String == "NO CARRIER")
        let replies = try replies(result)
        #expect(replies.map { $0["final"] as? String } == ["CONNECT 115200", "OK"], "\(result.stdout)")
    }
}
