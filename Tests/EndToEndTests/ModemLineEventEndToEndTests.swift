import Foundation
import Testing
import TetherSimulator

/// Modem-line changes as events: the simulator drops DCD and rings RI on its pty
/// (``Simulator/setModemInputs(_:)``) and `monitor --format json` reports each as it
/// happens, through the real libserialport path (the pty compatibility layer reads the
/// simulated inputs; `TIOCMIWAIT` is not used, the lines are looked at every 100 ms:
/// docs/HARDWARE.md).
@Suite struct ModemLineEventEndToEndTests {
    /// A device that drops DCD, then rings: its own behaviour (``ScriptedDevice`` chunks of
    /// modem inputs), each change one `line_event`.
    @Test func dcdDroppingAndRIRingingAreLineEvents() throws {
        let device = ScriptedDevice(onOpen: [
            .init("ready\n", after: .milliseconds(300)), .init(modemInputs: [.cts, .dsr], after: .milliseconds(300)),
            .init(modemInputs: [.cts, .dsr, .ri], after: .milliseconds(300)),
            .init(modemInputs: [.cts, .dsr], after: .milliseconds(300)), .init("done\n", after: .milliseconds(300)),
        ])
        let simulator = try Simulator(device: device)
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["monitor", simulator.devicePath, "--format", "json", "--count", "2"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        let events = records.filter { $0["type"] as? String == "line_event" }
        #expect(events.map { $0["event"] as? String } == ["modem_lines", "modem_lines", "modem_lines"])
        #expect(events.map { $0["changed"] as? [String] } == [["dcd"], ["ri"], ["ri"]])
        #expect(events.map { $0["dcd"] as? Bool } == [false, false, false])
        #expect(events.map { $0["ri"] as? Bool } == [false, true, false])
        #expect(events.map { $0["cts"] as? Bool } == [true, true, true])
        let order = records.compactMap { $0["line"] as? String ?? ($0["event"] as? String).map { _ in "event" } }
        #expect(order == ["ready", "event", "event", "event", "done"], "as they happened, between the lines")
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
