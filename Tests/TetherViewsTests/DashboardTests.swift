import Foundation
import Testing
import TetherPresenter

@testable import TetherModel
@testable import TetherViews

/// The live views: the dashboard's screen and the `state` record, both from one
/// ``ViewState`` that has every field set.
@Suite struct DashboardTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A state with every field set, through the Presenter.
    static let fullState: ViewState = {
        func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }
        var presenter = Presenter(
            port: "/dev/ttyUSB0", device: "chamber",
            facts: DeviceFacts(identity: "TETHER,ENV-1,SIM0001,1.0", units: ["temp": "°C"]))
        let events: [DeviceEvent] = [
            DeviceEvent(time: at(0), kind: .connected(port: "/dev/ttyUSB0", settings: "9600 8N1")),
            DeviceEvent(time: at(1), kind: .session(.notification(Line("!READING temp=21.50 hum=40.1")))),
            DeviceEvent(time: at(2), kind: .session(.notification(Line("!READING temp=22.75 hum=41.9")))),
            DeviceEvent(time: at(3), kind: .session(.notification(Line("!ALARM temp_high temp=31.02 limit=30.0")))),
            DeviceEvent(
                time: at(4),
                kind: .session(
                    .replied(
                        RequestID(value: 1), command: "SETP 99",
                        reply: Reply(lines: [Line("ERR -222,\"Data out of range\"")], isError: true),
                        roundTrip: .milliseconds(7)))),
            DeviceEvent(
                time: at(5),
                kind: .session(.failed(RequestID(value: 2), command: "TEMP?", failure: .timedOut(.milliseconds(500))))),
            DeviceEvent(time: at(6), kind: .session(.lateReply(command: "TEMP?", reply: Reply(lines: [Line("22.8")])))),
            DeviceEvent(time: at(7), kind: .error("write failed")),
            DeviceEvent(time: at(8), kind: .missed(count: 2)),
            DeviceEvent(time: at(9), kind: .disconnected(reason: "device hung up")),
            DeviceEvent(time: at(9), kind: .reconnecting),
        ]
        for event in events { _ = presenter.handle(event) }
        return presenter.state
    }()

    private func screen(_ state: ViewState = fullState, width: Int = 100, height: Int = 40) -> [String] {
        Dashboard(state: state, now: Self.start.addingTimeInterval(12)).lines(width: width, height: height).map(\.text)
    }

    @Test func theScreenShowsEveryPartOfTheState() throws {
        let text = screen().joined(separator: "\n")
        for expected in [
            "tether · /dev/ttyUSB0 [chamber]", "TETHER ENV-1 · serial SIM0001 · firmware 1.0 (from the profile)",
            "reconnecting · down 3.0 s · 9600 8N1 · device hung up", "alarm   !ALARM temp_high temp=31.02 limit=30.0",
            "error   SETP 99 → ERR -222,\"Data out of range\"", "warning write failed",
            "SETP 99 ✗ ERR -222,\"Data out of range\"  7 ms", "TEMP? ✗ no reply within 500 ms",
            "notifications 3 · replies 1 · error replies 1 · timeouts 1 · failures 0 · late replies 1 · missed 2",
            "reconnects 0",
        ] {
            #expect(text.contains(expected), "missing: \(expected)\n\(text)")
        }
        let temp = try #require(screen().first { $0.hasPrefix("temp ") })
        let cells = temp.split(separator: " ", omittingEmptySubsequences: true)
        #expect(Array(cells.prefix(6)) == ["temp", "31.02", "°C", "21.50", "31.02", "25.090"])
        #expect(cells[6] == "3")
        #expect(cells[7] == "▁▂█")
        #expect(temp.hasSuffix("9.0 s"))
        let hum = try #require(screen().first { $0.hasPrefix("hum ") })
        #expect(hum.split(separator: " ").prefix(7) == ["hum", "41.9", "40.1", "41.9", "41.00", "2", "▁█"])
    }

    @Test func theConnectionLineForEachState() {
        var state = ViewState(port: "p")
        #expect(screen(state)[2].hasSuffix("connecting"))
        state.connection = .connected(since: Self.start)
        state.settings = "115200 8N1"
        #expect(screen(state)[2].hasSuffix("connected · 115200 8N1 · for 12 s"))
        state.connection = .disconnected(reason: "unplugged", since: Self.start.addingTimeInterval(-125))
        #expect(screen(state)[2].hasSuffix("disconnected · 2 min 17 s ago · unplugged"))
        #expect(screen(state)[1].hasSuffix("unknown (no *IDN? reply seen)"))
    }

    /// A short terminal shares what is left between alerts and exchanges, newest first;
    /// the counters stay at the bottom.
    @Test func aShortTerminalShowsTheNewestAlertsAndExchanges() {
        // 3 head + blank + 4 reading lines + 2 × (blank + heading) + 2 counter lines = 14.
        let lines = screen(width: 100, height: 16)
        #expect(lines.count == 16)
        let alerts = lines.firstIndex(of: "ALERTS")!
        let exchanges = lines.firstIndex(of: "EXCHANGES")!
        #expect(lines[alerts + 1].contains("write failed"))
        #expect(lines[exchanges + 1].contains("TEMP? ✗ no reply within 500 ms"))
        #expect(lines[14].hasPrefix("notifications 3"))
        let tall = screen(width: 100, height: 40)
        #expect(tall.count == 19)
    }

    @Test func theScreenFitsTheTerminal() {
        let small = screen(width: 40, height: 12)
        #expect(small.count <= 12)
        #expect(small.allSatisfy { $0.count <= 40 })
        #expect(small.contains { $0.hasPrefix("temp") })
        #expect(small.last?.hasPrefix("missed 2") == true || small.last?.hasPrefix("reconnects") == true)
        #expect(screen(width: 10, height: 1).count == 1)
    }

    /// Device text never drives the terminal: an ESC in a reading's value is escaped.
    @Test func deviceBytesAreEscaped() {
        var presenter = Presenter(port: "p")
        _ = presenter.handle(
            DeviceEvent(kind: .session(.notification(Line([0x21, 0x52, 0x20, 0x78, 0x3D, 0x1B, 0x5B, 0x32, 0x4A])))))
        let text = screen(presenter.state).joined()
        #expect(!text.contains("\u{1B}"))
        #expect(text.contains("\\x1b[2J"))
    }

    @Test func sparklineScalesBetweenLowestAndHighest() {
        #expect(Sparkline.text([0, 1, 2, 3, 4, 5, 6, 7], width: 8) == "▁▂▃▄▅▆▇█")
        #expect(Sparkline.text([5, 5, 5], width: 8) == "▁▁▁")
        #expect(Sparkline.text([1, 2, 3, 10, 20], width: 2) == "▁█")
        #expect(Sparkline.text([], width: 8) == "")
    }

    static let capabilities = TerminalCapabilities(
        enterScreen: "<enter>", leaveScreen: "<leave>", hideCursor: "<hide>", showCursor: "<show>", home: "<home>",
        clearToEndOfLine: "<el>", clearToEndOfScreen: "<ed>", reset: "<reset>", bold: "<bold>", dim: "<dim>",
        foreground: (0..<8).map { "<fg\($0)>" })

    private func drawOnce(environment: [String: String]) -> String {
        let output = BufferSink(isTerminal: true)
        let view = DashboardView(
            output: output, capabilities: Self.capabilities, environment: environment, size: { (80, 24) },
            clock: { Self.start })
        view.finish(Self.fullState)
        return output.text
    }

    @Test func aFrameEntersTheScreenAndFinishPutsItBack() {
        let text = drawOnce(environment: [:])
        #expect(text.hasPrefix("<enter><hide><home>"))
        #expect(text.hasSuffix("<ed><reset><show><leave>"))
        #expect(text.contains("<el>\r\n"))
        #expect(text.contains("<fg3>reconnecting<reset>"))
    }

    @Test func aDeviceGoneForGoodIsToldOnceTheScreenIsBack() {
        var state = ViewState(port: "/dev/ttyUSB0")
        state.connection = .disconnected(reason: "device hung up", since: Self.start)
        let diagnostics = BufferSink()
        DashboardView(
            output: BufferSink(), diagnostics: diagnostics, capabilities: Self.capabilities, environment: [:],
            size: { (80, 24) }
        ).finish(state)
        #expect(diagnostics.text == "disconnected: /dev/ttyUSB0: device hung up\n")
        let quiet = BufferSink()
        DashboardView(
            output: BufferSink(), diagnostics: quiet, capabilities: Self.capabilities, environment: [:],
            size: { (80, 24) }
        ).finish(Self.fullState)
        #expect(quiet.text.isEmpty)
    }

    @Test func noColorLeavesOutColoursButKeepsHeadings() {
        let text = drawOnce(environment: ["NO_COLOR": "1"])
        #expect(!text.contains("<fg"))
        #expect(!text.contains("<dim>"))
        #expect(text.contains("<bold>ALERTS<reset>"))
    }

    @Test func terminfoKnowsXtermAndRefusesDumb() throws {
        let xterm = try #require(TerminalCapabilities.load(term: "xterm"))
        #expect(xterm.enterScreen == "\u{1B}[?1049h\u{1B}[22;0;0t")
        #expect(xterm.home == "\u{1B}[H")
        #expect(xterm.clearToEndOfLine == "\u{1B}[K")
        #expect(xterm.foreground[2] == "\u{1B}[32m")
        #expect(TerminalCapabilities.load(term: "dumb") == nil)
        #expect(TerminalCapabilities.load(term: "no-such-terminal") == nil)
        #expect(TerminalCapabilities.load(term: nil) == nil)
    }

    @Test func theStateRecordHoldsEveryField() throws {
        let output = BufferSink()
        JSONStateView(output: output, clock: { Self.start }).finish(Self.fullState)
        let data = Data(output.text.utf8)
        let record = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(record.keys) == [
                "v", "type", "time", "port", "device", "connection", "settings", "identity", "readings", "alerts",
                "exchanges", "counts",
            ])
        #expect(record["type"] as? String == "state")
        #expect(record["device"] as? String == "chamber")
        let connection = try #require(record["connection"] as? [String: Any])
        #expect(connection["state"] as? String == "reconnecting")
        #expect(connection["reason"] as? String == "device hung up")
        #expect(connection["since"] as? String == "2027-01-15T08:00:09.000Z")
        let identity = try #require(record["identity"] as? [String: Any])
        #expect(identity["source"] as? String == "description")
        let readings = try #require(record["readings"] as? [[String: Any]])
        #expect(readings.map { $0["name"] as? String } == ["temp", "hum", "limit"])
        #expect(readings[0]["history"] as? [Double] == [21.5, 22.75, 31.02])
        #expect(readings[0]["unit"] as? String == "°C")
        #expect(readings[0]["mean"] as? Double == (21.5 + 22.75 + 31.02) / 3)
        let alerts = try #require(record["alerts"] as? [[String: Any]])
        #expect(alerts.map { $0["kind"] as? String } == ["alarm", "error_reply", "warning"])
        let exchanges = try #require(record["exchanges"] as? [[String: Any]])
        #expect(exchanges.map { $0["type"] as? String } == ["reply", "timeout"])
        let counts = try #require(record["counts"] as? [String: Int])
        #expect(counts["missed"] == 2 && counts["late_replies"] == 1 && counts["notifications"] == 3)
    }
}
