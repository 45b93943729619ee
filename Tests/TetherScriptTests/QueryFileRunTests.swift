import Testing
import TetherPresenter
import TetherScript
import TetherSimulator

/// Query files run against simulated devices.
@Suite struct QueryFileRunTests {
    @Test func passingAndFailingLines() async throws {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let summary = try await harness.run(
            "*IDN? =~ ^TETHER\nSETP 99\nSETP 99 =~ ^ERR -222\nSETP? == 22.0\nSETP? == 25.0\n", name: "q.txt",
            language: .queries)
        #expect(summary.outcome == .failed)
        #expect(harness.view.checks.map(\.status) == [.passed, .failed, .passed, .passed, .failed])
        #expect(harness.view.checks.map(\.location.line) == [1, 2, 3, 4, 5])
        #expect(harness.view.checks[1].detail == "error reply")
        #expect(harness.view.checks[4].actual == ["22.0"])
    }

    /// After the device hangs up, later lines are not sent and
    /// are reported as not run.
    @Test func linesAfterAHangUpAreNotRun() async throws {
        let device = ScriptedDevice(rules: [
            .init(on: "AT\n", send: [.init("OK\r\n")]),
            .init(on: "AT+CGSN\n", send: [.init("3520990")], hangUpAfter: .milliseconds(300)),
        ])
        let harness = try Harness([(nil, device)])
        let simulator = harness.simulators[0]
        let summary = try await harness.run(
            "AT\nAT+CGSN\nAT+CSQ\n", name: "q.txt", language: .queries, timeout: .seconds(10))
        #expect(summary.outcome == .deviceError)
        #expect(harness.view.checks.map(\.status) == [.passed, .failed, .notRun])
        #expect(String(decoding: simulator.received, as: UTF8.self) == "AT\nAT+CGSN\n")
        let tail = harness.view.events(of: nil).contains {
            if case .notification(let line, _) = $0 {
                line.text == "3520990" && line.ending == .unterminated
            } else {
                false
            }
        }
        #expect(tail, "the partial line is delivered, flagged unterminated")
    }
}
