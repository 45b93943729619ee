import Foundation
import Testing
import TetherSimulator

/// What real devices send, played on a pty and queried through the built CLI: one
/// test per example of docs/DIALECTS.md's rules for control sequences, prompts in
/// output, AT line noise and final codes, resynchronisation, SCPI error entries and
/// stray lines.
@Suite struct RealDeviceEndToEndTests {
    typealias Chunk = ScriptedDevice.Chunk

    private func query(
        _ device: any SimulatedDevice, faults: FaultPlan = FaultPlan(), _ arguments: [String]
    ) throws -> Subprocess.Result {
        let simulator = try Simulator(device: device, faults: faults)
        defer { simulator.stop() }
        return try Subprocess.run("tether", ["query", simulator.devicePath] + arguments, timeout: 300)
    }

    private func query(_ rules: [ScriptedDevice.Rule], _ arguments: [String]) throws -> Subprocess.Result {
        try query(ScriptedDevice(rules: rules), arguments)
    }

    private func objects(_ result: Subprocess.Result, type: String) throws -> [[String: Any]] {
        try JSONLines.parse(result.stdout).filter { $0["type"] as? String == type }
    }

    static let shell = [
        ScriptedDevice.Rule(
            on: "hostname\r", send: [Chunk("hostname\r\n\u{1B}[?2004l\rlab-7\r\n\u{1B}[?2004hpi@lab:~$ ")]),
        ScriptedDevice.Rule(
            on: "false\r", send: [Chunk("false\r\n\u{1B}[1;31mFAIL\u{1B}[0m\r\n\u{1B}[?2004hpi@lab:~$ ")]),
    ]

    /// A shell in bracketed-paste mode with colour: exactly `["lab-7"]` and `FAIL`, the
    /// exact bytes in `lines_hex`; `--prompt '$ '` takes the whole last line as the prompt.
    @Test(arguments: ["pi@lab:~$ ", "$ "])
    func shellOutputWithoutControlSequences(prompt: String) throws {
        let json = try query(
            Self.shell, ["--dialect", "prompt", "--prompt", prompt, "--format", "json", "hostname", "false"])
        #expect(json.status == 0, "\(json.stderr)")
        let replies = try objects(json, type: "reply")
        #expect(replies.map { $0["lines"] as? [String] } == [["lab-7"], ["FAIL"]])
        #expect(replies.last?["lines_hex"] as? [String] == ["1b5b313b33316d4641494c1b5b306d"])
        #expect(try objects(json, type: "notification").isEmpty)
        let text = try query(Self.shell, ["--dialect", "prompt", "--prompt", prompt, "hostname", "false"])
        #expect(text.stdout.contains("hostname → lab-7  ("), "\(text.stdout)")
        #expect(text.stdout.contains("false → FAIL  ("), "\(text.stdout)")
    }

    /// U-Boot: `=> ` inside `printenv` output does not end the reply, even when a read
    /// ends right after it; the next command is unaffected.
    @Test func promptInsideOutput() throws {
        let rules = [
            ScriptedDevice.Rule(
                on: "printenv bootcmd\r",
                send: [
                    Chunk("printenv bootcmd\r\nbootcmd=run a => "), Chunk("b", after: .milliseconds(20)),
                    Chunk("\r\n=> ", after: .milliseconds(80)),
                ]),
            ScriptedDevice.Rule(on: "version\r", send: [Chunk("version\r\nU-Boot 2024.01\r\n=> ")]),
        ]
        let json = try query(rules, ["--dialect", "prompt", "--format", "json", "printenv bootcmd", "version"])
        #expect(json.status == 0, "\(json.stderr)")
        let replies = try objects(json, type: "reply")
        #expect(replies.map { $0["lines"] as? [String] } == [["bootcmd=run a => b"], ["U-Boot 2024.01"]])
        #expect(try objects(json, type: "notification").isEmpty)
    }

    /// A stray `0xFF` (or NUL) before the AT echo is a notification of its own, shown
    /// escaped; the reply is `["Quectel"]` with `OK`.
    @Test(arguments: [([UInt8]([0xFF]), "\\xff", "ff"), ([0x00], "\\x00", "00")])
    func atEchoBehindLineNoise(noise: [UInt8], escaped: String, hex: String) throws {
        let rules = [
            ScriptedDevice.Rule(
                on: "AT+CGMI\r",
                send: [Chunk(noise), Chunk("AT+CGMI\r\r\nQuectel\r\n\r\nOK\r\n", after: .milliseconds(5))])
        ]
        let json = try query(rules, ["--dialect", "at", "--format", "json", "AT+CGMI"])
        #expect(json.status == 0, "\(json.stderr)")
        let reply = try #require(try objects(json, type: "reply").first)
        #expect(reply["lines"] as? [String] == ["Quectel"])
        #expect(reply["final"] as? String == "OK")
        let notifications = try objects(json, type: "notification")
        #expect(notifications.count == 1)
        #expect((notifications.first?["line_hex"] as? String ?? "00") == hex)
        let text = try query(rules, ["--dialect", "at", "AT+CGMI"])
        #expect(text.stdout.contains(escaped), "\(text.stdout)")
        #expect(text.stdout.contains("AT+CGMI → Quectel\n"), "\(text.stdout)")
    }

    /// ESP-AT ends a failed join with `FAIL` 200 ms after a URC-like line: an error
    /// reply (exit 1), not a timeout; `--final-error` adds a vendor code.
    @Test func espFailAndVendorFinalCodes() throws {
        let join = "AT+CWJAP=\"lab\",\"x\""
        let rules = [
            ScriptedDevice.Rule(
                on: join + "\r",
                send: [Chunk(join + "\r\r\nWIFI DISCONNECT\r\n"), Chunk("\r\nFAIL\r\n", after: .milliseconds(200))]),
            ScriptedDevice.Rule(on: "AT+QX\r", send: [Chunk("AT+QX\r\r\nABORTED\r\n")]),
        ]
        let json = try query(rules, ["--dialect", "at", "--format", "json", "--timeout", "2000", join])
        #expect(json.status == 1, "\(json.stdout) \(json.stderr)")
        let reply = try #require(try objects(json, type: "reply").first)
        #expect(reply["final"] as? String == "FAIL")
        #expect(reply["lines"] as? [String] == ["WIFI DISCONNECT"])
        #expect(reply["error"] as? Bool == true)
        let vendor = try query(rules, ["--dialect", "at", "--final-error", "ABORTED", "--timeout", "2000", "AT+QX"])
        #expect(vendor.status == 1, "\(vendor.stdout) \(vendor.stderr)")
        #expect(vendor.stdout.contains("AT+QX ✗ ABORTED"), "\(vendor.stdout)")
    }

    /// `AT+CIFSR` gets its echo and an address line but no final code; after its
    /// timeout `AT` gets its own echo and `OK`.
    @Test func echoOfTheNextCommandResynchronises() throws {
        let rules = [
            ScriptedDevice.Rule(on: "AT+CIFSR\r", send: [Chunk("AT+CIFSR\r\r\n+CIFSR:STAIP,\"0.0.0.0\"\r\n")]),
            ScriptedDevice.Rule(on: "AT\r", send: [Chunk("AT\r\r\nOK\r\n")]),
        ]
        let json = try query(rules, ["--dialect", "at", "--format", "json", "--timeout", "300", "AT+CIFSR", "AT"])
        #expect(json.status == 75, "\(json.stdout) \(json.stderr)")
        #expect(try objects(json, type: "timeout").map { $0["command"] as? String } == ["AT+CIFSR"])
        #expect(try objects(json, type: "partial_reply").first?["lines"] as? [String] == ["+CIFSR:STAIP,\"0.0.0.0\""])
        let reply = try #require(try objects(json, type: "reply").first)
        #expect(reply["command"] as? String == "AT")
        #expect(reply["final"] as? String == "OK")
    }

    /// A modem paced at 300 baud with a 200 ms timeout: `ATI`'s identity lines come
    /// during the wait after its timeout and are reported (late reply or notification),
    /// each once; `AT` never gets them (at 300 baud its own `OK` cannot come within
    /// 200 ms either, so it times out too).
    @Test func slowModemLosesNothing() throws {
        var faults = FaultPlan()
        faults.paceBaud = 300
        let modem = try SimulatorProfiles.device(named: "at-modem")
        let json = try query(
            modem, faults: faults, ["--dialect", "at", "--format", "json", "--timeout", "200", "ATI", "AT"])
        let records = try JSONLines.parse(json.stdout)
        var reported: [String] = []
        for record in records {
            switch record["type"] as? String {
            case "late_reply", "partial_reply": reported += record["lines"] as? [String] ?? []
            case "notification": reported += [record["line"] as? String ?? ""]
            case "reply": #expect(record["command"] as? String == "AT" && (record["lines"] as? [String]) == [])
            default: break
            }
        }
        // What came before tether closed is reported, each line once, in order; on a
        // loaded machine tether can close before all of `ATI`'s answer (1.5 s at 300
        // baud) has come, and the last piece is then the unterminated tail at close.
        let answer = ["TETHER", "SIM-M1", "Revision: SIMM1R01A01", "OK"]
        #expect(reported.count >= 2 && reported.count <= answer.count, "\(json.stdout)")
        #expect(Array(reported.dropLast()) == Array(answer.prefix(reported.count - 1)), "\(json.stdout)")
        #expect(reported.last.map { answer[reported.count - 1].hasPrefix($0) } == true, "\(json.stdout)")
        #expect(try objects(json, type: "timeout").map { $0["command"] as? String }.first == "ATI")
    }

    /// A device that never answers: four commands cost about four timeouts (each is
    /// sent as soon as the previous one timed out: the line was quiet all along).
    @Test func deadDeviceCostsOneTimeoutPerCommand() throws {
        let json = try query(ScriptedDevice(rules: []), ["--format", "json", "--timeout", "300", "A", "B", "C", "D"])
        #expect(json.status == 75)
        let records = try JSONLines.parse(json.stdout)
        let sent = records.filter { $0["type"] as? String == "sent" }.compactMap { $0["time"] as? String }
        let timeouts = records.filter { $0["type"] as? String == "timeout" }.compactMap { $0["time"] as? String }
        #expect(sent.count == 4 && timeouts.count == 4)
        // Each command goes out in the same millisecond range as the previous timeout,
        // not after a quiet wait: its `sent` record follows that `timeout` directly.
        let types = records.compactMap { $0["type"] as? String }.filter { $0 == "sent" || $0 == "timeout" }
        #expect(types == ["sent", "timeout", "sent", "timeout", "sent", "timeout", "sent", "timeout"])
    }

    /// SCPI error queues: `0 No Error` and `+0 NO ERROR` mean empty; two queued errors
    /// are both reported, in order, for the command that caused them.
    @Test(arguments: ["0 No Error", "+0 NO ERROR", "0,\"No error\"", "+0,\"No error\""])
    func emptyErrorQueueFormats(entry: String) throws {
        let rules = [
            ScriptedDevice.Rule(on: "*IDN?\n", send: [Chunk("ACME,PSU-1,0001,1.0\n")]),
            ScriptedDevice.Rule(on: "SYST:ERR?\n", send: [Chunk(entry + "\n")]),
        ]
        let result = try query(rules, ["--dialect", "scpi", "--check-errors", "*IDN?", "VOLT 5"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("*IDN? → ACME,PSU-1,0001,1.0"), "\(result.stdout)")
    }

    @Test func severalQueuedErrorsInOrder() throws {
        let device = ErrorQueueDevice(errors: ["-222,\"Data out of range\"", "-221,\"Settings conflict\""])
        let json = try query(
            device, ["--dialect", "scpi", "--check-errors", "--format", "json", "VOLT 99;CURR 9", "*IDN?"])
        #expect(json.status == 1, "\(json.stdout) \(json.stderr)")
        let replies = try objects(json, type: "reply")
        #expect(
            replies.map { $0["lines"] as? [String] } == [
                ["-222,\"Data out of range\"", "-221,\"Settings conflict\""], ["ACME,PSU-1,0001,1.0"],
            ])
        #expect(replies.map { $0["error"] as? Bool } == [true, false])
    }

    /// The default simulated device used through its path without its notification
    /// pattern (`--latency 30`, `RATE 50`) but said to speak unasked (`--listen 150`):
    /// replies settle, so a `!READING` taken for a reply makes only that reply wrong
    /// and marks it in doubt (the very first reply, with no round trip known yet, may
    /// go unmarked); with the options tether-sim prints, every reply is right and none
    /// is in doubt.
    @Test func notificationsWithoutTheirPatternAreBounded() throws {
        var faults = FaultPlan(seed: 5)
        faults.latency = .milliseconds(30)
        let simulator = try Simulator(faults: faults)
        defer { simulator.stop() }
        let rate = try Subprocess.run("tether", ["query", simulator.devicePath, "RATE 50"])
        #expect(rate.status == 0, "\(rate.stderr)")
        let expected = ["*IDN?": "TETHER,ENV-1,SIM0001,1.0", "RATE?": "50", "ALARM?": "30.0"]
        let commands = Array(repeating: ["*IDN?", "RATE?", "ALARM?"], count: 8).flatMap { $0 }
        for options in [["--listen", "150"], ["--notify-pattern", "^!", "--error-pattern", "^ERR"]] {
            let json = try Subprocess.run(
                "tether", ["query", simulator.devicePath, "--format", "json"] + options + commands)
            #expect(json.status == 0, "\(json.stderr)")
            let replies = try objects(json, type: "reply")
            #expect(replies.map { $0["command"] as? String } == commands)
            let isRight = replies.map { ($0["lines"] as? [String]) == [expected[$0["command"] as? String ?? ""] ?? ""] }
            let inDoubt = replies.map { $0["in_doubt"] as? Bool == true }
            if options[0] == "--listen" {
                let unmarked = replies.indices.filter { !isRight[$0] && !inDoubt[$0] }
                #expect(unmarked.count <= 1, "wrong, not in doubt: \(unmarked.map { replies[$0] })")
            } else {
                #expect(isRight.allSatisfy { $0 } && !inDoubt.contains(true), "\(json.stdout)")
            }
        }
    }

    /// A device that repeats a reply now and then, in pieces (`--duplicate 0.05
    /// --split 3`): a repeat affects at most the one reply it was taken for, which is
    /// marked in doubt; every other reply is its own command's. (600 queries rather
    /// than the report's 1 500, to keep the suite's time on a loaded machine.)
    @Test func repeatedRepliesShiftNothing() throws {
        let count = 600
        let rules = (1...count).map { ScriptedDevice.Rule(on: "ECHO \($0)\n", send: [Chunk("R \($0)\r\n")]) }
        var faults = FaultPlan(seed: 11)
        faults.duplicateProbability = 0.05
        faults.splitMaximum = 3
        let json = try query(
            ScriptedDevice(rules: rules), faults: faults,
            ["--format", "json", "--timeout", "2000"] + (1...count).map { "ECHO \($0)" })
        let replies = try objects(json, type: "reply")
        #expect(replies.count == count, "\(json.stderr)")
        let wrong = replies.filter {
            ($0["lines"] as? [String]) != ["R " + String(($0["command"] as? String ?? "").dropFirst(5))]
        }
        let unmarked = wrong.filter { $0["in_doubt"] as? Bool != true }
        #expect(unmarked.isEmpty, "wrong and not marked in doubt: \(unmarked.map { ($0["command"]!, $0["lines"]!) })")
        #expect(wrong.count <= count / 10, "\(wrong.count) of \(count) paired with the wrong command")
    }
}

/// An instrument whose error queue holds `errors` after the first command: `SYST:ERR?`
/// answers them in order, then `0,"No error"`; `*IDN?` answers an identity.
private final class ErrorQueueDevice: SimulatedDevice, @unchecked Sendable {
    private var errors: [String]
    private var received = ""

    init(errors: [String]) { self.errors = errors }

    func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] {
        received += String(decoding: bytes, as: UTF8.self)
        var outputs: [DeviceOutput] = []
        while let end = received.firstIndex(of: "\n") {
            let line = String(received[..<end])
            received = String(received[received.index(after: end)...])
            if line == "SYST:ERR?" {
                outputs.append(.send((errors.isEmpty ? "0,\"No error\"" : errors.removeFirst()) + "\n"))
            } else if line == "*IDN?" {
                outputs.append(.send("ACME,PSU-1,0001,1.0\n"))
            }
        }
        return outputs
    }
}

/// Replies are shown at once (no settling) until the device shows that it speaks
/// unasked; `--listen` says beforehand that it does, `--no-unsolicited` that it does not
/// (over a device file's or profile's `listen`). Both are for the dialects whose replies
/// settle.
@Suite struct NoUnsolicitedEndToEndTests {
    /// With `--listen 0` a stray line right after a reply (here in the same write) marks
    /// that reply in doubt; by default and with `--no-unsolicited` the reply was already
    /// shown, and the stray line is a notification.
    @Test func repliesAreShownAtOnce() throws {
        let rules = [ScriptedDevice.Rule(on: "A\n", send: [.init("one\r\nstray\r\n")])]
        func run(_ options: [String]) throws -> [[String: Any]] {
            let simulator = try Simulator(device: ScriptedDevice(rules: rules))
            defer { simulator.stop() }
            let result = try Subprocess.run(
                "tether", ["query", simulator.devicePath, "--format", "json", "--linger", "200"] + options + ["A"])
            #expect(result.status == 0, "\(result.stderr)")
            return try JSONLines.parse(result.stdout)
        }
        let settled = try run(["--listen", "0"]).first { $0["type"] as? String == "reply" }
        #expect(settled?["in_doubt"] as? Bool == true)
        for options in [[], ["--no-unsolicited"]] {
            let immediate = try run(options)
            #expect(immediate.first { $0["type"] as? String == "reply" }?["in_doubt"] == nil)
            #expect(immediate.contains { $0["type"] as? String == "notification" && $0["line"] as? String == "stray" })
        }
    }

    @Test(arguments: [["--no-unsolicited"], ["--listen", "150"]])
    func refusedForDialectsThatDoNotSettle(options: [String]) throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--dialect", "at"] + options + ["AT"])
        #expect(result.status == 64)
        #expect(result.stderr.contains(options[0]), "\(result.stderr)")
    }
}
