import Foundation
import Testing
import TetherSimulator

/// Modem-line changes as events: the simulator drops DCD and rings RI on its pty
/// (``Simulator/setModemInputs(_:)``) and `monitor --format json` reports each as it
/// happens, through the real libserialport path (the pty compatibility layer reads the
/// simulated inputs; `TIOCMIWAIT` is not used, the lines are looked at every 100 ms:
/// docs/HARDWARE.md).
@Suite struct ModemLineEventEndToEndTests {
    @Test func dcdDroppingAndRIRingingAreLineEvents() throws {
        let simulator = try Simulator(device: ScriptedDevice(onOpen: [.init("ready\n", after: .milliseconds(200))]))
        defer { simulator.stop() }
        let monitor = try Subprocess("tether", ["monitor", simulator.devicePath, "--format", "json"])
        #expect(monitor.waitForOutput(containing: "ready"))
        #expect(simulator.setModemInputs([.cts, .dsr]))
        #expect(monitor.waitForOutput(containing: #""changed":["dcd"]"#))
        #expect(simulator.setModemInputs([.cts, .dsr, .ri]))
        #expect(monitor.waitForOutput(containing: #""changed":["ri"]"#))
        monitor.send(SIGINT)
        let result = monitor.wait(timeout: 30)
        let events = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "line_event" }
        #expect(events.map { $0["event"] as? String } == ["modem_lines", "modem_lines"])
        #expect(events.map { $0["dcd"] as? Bool } == [false, false])
        #expect(events.map { $0["ri"] as? Bool } == [false, true])
        #expect(events.map { $0["cts"] as? Bool } == [true, true])
    }

    /// The text view says it in words.
    @Test func textSaysCarrierLost() throws {
        let simulator = try Simulator(device: ScriptedDevice(onOpen: [.init("ready\n", after: .milliseconds(200))]))
        defer { simulator.stop() }
        let monitor = try Subprocess("tether", ["monitor", simulator.devicePath])
        #expect(monitor.waitForOutput(containing: "ready"))
        #expect(simulator.setModemInputs([.cts, .dsr]))
        #expect(monitor.waitForOutput(containing: "DCD off (carrier lost)"))
        monitor.send(SIGINT)
        _ = monitor.wait(timeout: 30)
    }
}
