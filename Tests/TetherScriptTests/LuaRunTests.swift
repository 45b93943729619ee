import Foundation
import Testing
import TetherModel
import TetherPresenter
import TetherScript
import TetherSimulator

/// Lua scripts driving simulated devices through the real serial path.
@Suite struct LuaRunTests {
    @Test func sweepSetpointsReadBackAndCheck() async throws {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let summary = try await harness.run(
            """
            for _, setpoint in ipairs({ 20, 25, 30 }) do
              local reply = device.query("SETP " .. setpoint)
              check(reply and reply[1] == "OK", "set " .. setpoint)
              local back = device:query("SETP?")
              check(tonumber(back[1]) == setpoint, "read back " .. setpoint)
              emit({ setpoint = setpoint, back = back[1] })
            end
            check(false, "one that fails")
            check(true)
            """)
        #expect(summary.outcome == .failed)
        #expect(summary.passed == 7)
        #expect(summary.failed == 1)
        let checks = harness.view.checks
        #expect(checks.map(\.description).prefix(2) == ["set 20", "read back 20"])
        #expect(checks[6].status == .failed)
        #expect(checks[6].location == SourceLocation(file: "test.lua", line: 8))
        #expect(checks[7].description == "check(true)", "without a message: the source line")
        #expect(
            harness.view.emitted
                == [20, 25, 30].map { .object(["setpoint": .int($0), "back": .string("\($0).0")]) })
        let commands = harness.view.events(of: nil).compactMap {
            if case .sent(let command, _) = $0 { command.text } else { nil }
        }
        #expect(commands == ["SETP 20", "SETP?", "SETP 25", "SETP?", "SETP 30", "SETP?"])
    }

    /// An `on` handler for one device's alarm sends a command to the other device:
    /// the runner mediates, neither device knows the other.
    @Test func alarmOnOneDeviceDrivesTheOther() async throws {
        let harness = try Harness([
            ("chamber", SimulatorProfiles.defaultDevice()), ("cooler", SimulatorProfiles.defaultDevice()),
        ])
        let cooler = harness.simulators[1]
        let summary = try await harness.run(
            """
            devices.chamber.on("^!ALARM (%S+)", function(line, kind)
              devices.cooler.query("SETP 5")
              emit({ alarm = kind })
            end)
            devices.chamber.send("ALARM:TEST")
            devices.chamber.await("^!ALARM", 10000)
            check(devices.cooler.query("SETP?")[1] == "5.0", "cooler switched")
            """)
        #expect(summary.outcome == .passed, "\(harness.view.problems)")
        #expect(harness.view.emitted == [.object(["alarm": .string("test")])])
        #expect(String(decoding: cooler.received, as: UTF8.self) == "SETP 5\nSETP?\n")
        let coolerReplies = harness.view.events(of: "cooler").compactMap { event -> String? in
            guard case .exchanged(let exchange) = event, case .reply(let lines, _, _, _) = exchange.outcome else {
                return nil
            }
            return "\(exchange.command) → \(lines.map(\.text).joined())"
        }
        #expect(coolerReplies == ["SETP 5 → OK", "SETP? → 5.0"])
    }

    @Test func runtimeErrorStopsTheScriptWithItsLine() async throws {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let summary = try await harness.run("device.query('*IDN?')\nlocal x\nx.field = 1\ndevice.query('TEMP?')\n")
        #expect(summary.outcome == .scriptError)
        let problem = try #require(harness.view.problems.first)
        #expect(problem.location == SourceLocation(file: "test.lua", line: 3))
        #expect(problem.message.hasPrefix("test.lua:3: attempt to index a nil value"))
        let sent = harness.view.events(of: nil).filter { if case .sent = $0 { true } else { false } }
        #expect(sent.count == 1, "nothing runs after the error")
    }

    @Test func unknownDeviceIsFoundBeforeTheRun() throws {
        #expect(
            throws: ScriptError(
                at: SourceLocation(file: "s.lua", line: 2),
                "unknown device 'load' (this run has: psu; name one with --port load=PATH)")
        ) {
            try PreparedScript(
                Script(name: "s.lua", text: "-- devices.commented is fine\ndevices.load.send('OFF')\n", language: .lua),
                deviceNames: ["psu"])
        }
    }

    @Test func syntaxErrorIsFoundBeforeTheRun() {
        #expect(throws: ScriptError(at: SourceLocation(file: "s.lua", line: 2), "syntax error near 'oops'")) {
            try PreparedScript(
                Script(name: "s.lua", text: "local a = 1\nfoo oops\n", language: .lua), deviceNames: [nil])
        }
    }

    /// A timeout handed back as `nil, err` counts as unhandled until the script
    /// reads `err`.
    @Test(arguments: [false, true])
    func timeoutIsUnhandledUntilTheScriptLooksAtIt(handles: Bool) async throws {
        let harness = try Harness([(nil, ScriptedDevice())])
        let summary = try await harness.run(
            """
            local reply, err = device.query("AT", 300)
            check(reply == nil, "no reply")
            \(handles ? "check(err.kind == 'timeout', err)" : "")
            """)
        #expect(summary.outcome == (handles ? .passed : .timedOut))
        #expect(summary.unhandled == (handles ? 0 : 1))
        let timedOut = harness.view.events(of: nil).contains {
            if case .exchanged(let exchange) = $0, case .timedOut(let limit) = exchange.outcome {
                limit == .milliseconds(300)
            } else {
                false
            }
        }
        #expect(timedOut)
    }

    /// A reply that comes after its query timed out is reported
    /// late and never answers the next query.
    @Test func lateReplyNeverAnswersTheNextQuery() async throws {
        let device = ScriptedDevice(rules: [
            .init(on: "*OPC?\n", send: [.init("1\n", after: .milliseconds(1000))]),
            .init(on: "*IDN?\n", send: [.init("ACME,DMM-2,0001,2.0\n")]),
        ])
        let harness = try Harness([(nil, device)])
        let summary = try await harness.run(
            """
            local done = device.query("*OPC?", 500)
            sleep(1500)
            local identity = device.query("*IDN?", 1000)
            check(identity and identity[1] == "ACME,DMM-2,0001,2.0", "identity")
            """)
        #expect(summary.outcome == .timedOut, "the timed-out step was not handled")
        #expect(summary.passed == 1)
        let events = harness.view.events(of: nil)
        #expect(
            events.contains {
                if case .lateReply("*OPC?", let lines, _) = $0 { lines.map(\.text) == ["1"] } else { false }
            })
        #expect(
            events.contains {
                if case .exchanged(let exchange) = $0, exchange.command == "*OPC?", case .timedOut = exchange.outcome {
                    true
                } else {
                    false
                }
            })
    }

    /// `expect` matches lines received before the hang-up,
    /// the unterminated tail included; then the device loss stops the script.
    @Test func linesBeforeAHangUpAreStillExpected() async throws {
        let device = ScriptedDevice(rules: [
            .init(on: "dump\n", send: [.init("line1\r\nline2\r\nBlorp")], hangUpAfter: .milliseconds(300))
        ])
        let harness = try Harness([(nil, device)])
        let summary = try await harness.run(
            """
            device.send("dump")
            device.expect("line2", 30000)
            device.expect("Blorp", 30000)
            device.expect("never", 30000)
            emit({ unreachable = true })
            """)
        #expect(summary.outcome == .deviceError)
        #expect(harness.view.checks.map(\.status) == [.passed, .passed, .failed])
        #expect(harness.view.checks.map { $0.actual ?? [] } == [["line2"], ["Blorp"], []])
        #expect(harness.view.emitted.isEmpty)
        #expect(harness.view.problems.isEmpty, "a device loss is not a script error")
    }
}

extension LuaRunTests {
    /// Handlers run while the script waits, also in `sleep(0)`, never in the middle
    /// of the script's own code.
    @Test func handlersRunOnlyWhileTheScriptWaits() async throws {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let summary = try await harness.run(
            """
            local seen = 0
            device.on("^!ALARM", function() seen = seen + 1 end)
            device.query("ALARM:TEST")        -- the alarm follows the reply
            local before = seen
            local deadline = os.clock() + 0.3
            while os.clock() < deadline do end  -- busy: no handler can run
            check(seen == before, "no handler during the script's own code")
            sleep(300)
            check(seen == 1, "the handler ran while the script slept")
            """)
        #expect(summary.outcome == .passed, "\(harness.view.checks)")
    }
}
