import Foundation
import Testing
import TetherPresenter
import TetherScript
import TetherSimulator

/// `dev.on_line_event` (docs/SCRIPTING.md): a handler called with each line event of a
/// device, through the real serial path (the simulator drops DCD on its pty).
@Suite struct LuaLineEventTests {
    @Test func aHandlerSeesDCDDrop() async throws {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let simulator = harness.simulators[0]
        let drop = Task {
            try await Task.sleep(for: .milliseconds(700))
            simulator.setModemInputs([.cts, .dsr])
        }
        let summary = try await harness.run(
            """
            device.on_line_event("modem_lines", function(e)
              emit({ dcd = e.dcd, cts = e.cts, changed = e.changed[1] })
            end)
            device.on_line_event("break", function(e) emit({ unexpected = e.event }) end)
            sleep(2500)
            """)
        try await drop.value
        #expect(summary.outcome == .passed, "\(harness.view.problems)")
        #expect(
            harness.view.emitted == [.object(["dcd": .bool(false), "cts": .bool(true), "changed": .string("dcd")])])
    }

    @Test func anUnknownEventNameIsAnError() async throws {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let summary = try await harness.run(#"device.on_line_event("brake", function() end)"#)
        #expect(summary.outcome == .scriptError)
        #expect(harness.view.problems.map(\.message).joined().contains(#"on_line_event: unknown event "brake""#))
    }
}
