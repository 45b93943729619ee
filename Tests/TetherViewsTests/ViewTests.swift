import Foundation
import Testing
import TetherPresenter
import TetherViews

@testable import TetherModel

@Suite struct ViewTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000.25)

    private func render(_ events: [DeviceEvent.Kind], with view: (BufferSink, BufferSink) -> any DeviceView)
        -> (String, String)
    {
        let output = BufferSink()
        let diagnostics = BufferSink()
        let chosen = view(output, diagnostics)
        var presenter = Presenter(port: "/dev/ttyUSB0")
        for kind in events {
            for record in presenter.handle(DeviceEvent(time: time, kind: kind)) {
                chosen.render(record, state: presenter.state)
            }
        }
        return (output.text, diagnostics.text)
    }

    private func jsonObjects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    static let reply = DeviceEvent.Kind.session(
        .replied(
            RequestID(value: 1), command: "*IDN?", reply: Reply(lines: [Line("TETHER,ENV-1,SIM0001,1.0")]),
            roundTrip: .milliseconds(3)))

    @Test func textShowsReplyAndStatus() {
        let (output, diagnostics) = render([.connected(port: "/dev/ttyUSB0", settings: "115200 8N1"), Self.reply]) {
            TextView(output: $0, diagnostics: $1, environment: [:])
        }
        #expect(output == "*IDN? → TETHER,ENV-1,SIM0001,1.0  (3 ms)\n")
        #expect(diagnostics == "connected to /dev/ttyUSB0 (115200 8N1)\n")
    }

    /// A setting the port does not have is a warning after `connected`: one line on
    /// stderr in text, a `warning` record with the setting and both values in JSON.
    @Test func aSettingThePortDoesNotHaveIsAWarningRecord() throws {
        let events: [DeviceEvent.Kind] = [
            .connected(port: "/dev/ttyUSB0", settings: "115200 8N1"),
            .settingMismatch(setting: "parity", requested: "odd", actual: "none"),
        ]
        let (_, diagnostics) = render(events) { TextView(output: $0, diagnostics: $1, environment: [:]) }
        #expect(
            diagnostics
                == "connected to /dev/ttyUSB0 (115200 8N1)\n"
                + "warning: /dev/ttyUSB0: parity odd was asked for, the port has none\n")
        let (json, _) = render(events) { output, _ in JSONView(output: output) }
        let warning = try #require(jsonObjects(json).last)
        #expect(warning["type"] as? String == "warning")
        #expect(warning["setting"] as? String == "parity")
        #expect(warning["requested"] as? String == "odd")
        #expect(warning["actual"] as? String == "none")
        #expect(warning["message"] as? String == "/dev/ttyUSB0: parity odd was asked for, the port has none")
        #expect(warning["port"] as? String == "/dev/ttyUSB0")
    }

    @Test func waitingForThePortIsOneRecordInEachView() throws {
        let text = BufferSink()
        let json = BufferSink()
        let presenter = Presenter(port: "/dev/serial/by-id/usb-FTDI")
        presenter.presentWaiting(
            for: "/dev/serial/by-id/usb-FTDI", at: time,
            to: TextView(output: BufferSink(), diagnostics: text, environment: [:]))
        presenter.presentWaiting(for: "/dev/serial/by-id/usb-FTDI", at: time, to: JSONView(output: json))
        #expect(text.text == "waiting for /dev/serial/by-id/usb-FTDI to appear (Ctrl-C quits)\n")
        let object = try #require(jsonObjects(json.text).first)
        #expect(object["type"] as? String == "waiting")
        #expect(object["for"] as? String == "/dev/serial/by-id/usb-FTDI")
    }

    @Test func colourOnlyOnATerminalWithoutNoColor() {
        let error = DeviceEvent.Kind.session(
            .failed(RequestID(value: 2), command: "TEMP?", failure: .timedOut(.milliseconds(1000))))
        let terminal = BufferSink(isTerminal: true)
        TextView(output: terminal, diagnostics: BufferSink(), environment: [:])
            .render(Presenter.record(error, time: time), state: ViewState(port: "p"))
        #expect(terminal.text.contains("\u{1B}["))
        let noColor = BufferSink(isTerminal: true)
        TextView(output: noColor, diagnostics: BufferSink(), environment: ["NO_COLOR": "1"])
            .render(Presenter.record(error, time: time), state: ViewState(port: "p"))
        #expect(noColor.text == "TEMP? ✗ no reply within 1000 ms\n")
    }

    @Test func jsonReplyHasTheDocumentedFields() throws {
        let (output, _) = render([Self.reply]) { output, _ in JSONView(output: output) }
        let object = try #require(jsonObjects(output).first)
        #expect(object["type"] as? String == "reply")
        #expect(object["command"] as? String == "*IDN?")
        #expect(object["lines"] as? [String] == ["TETHER,ENV-1,SIM0001,1.0"])
        #expect(object["error"] as? Bool == false)
        #expect(object["rtt_ms"] as? Int == 3)
        #expect(object["port"] as? String == "/dev/ttyUSB0")
        #expect(object["v"] as? Int == 1)
        #expect(object["time"] as? String == "2027-01-15T08:00:00.250Z")
    }

    /// NUL stays in the JSON string; bytes that are not UTF-8
    /// come back exactly from `line_hex`; text never carries them raw.
    @Test func undecodableBytesAreLossless() throws {
        let lines: [DeviceEvent.Kind] = [
            .session(.notification(Line([0x41, 0x42, 0x00, 0x43, 0x44]))),
            .session(.notification(Line([0x2D, 0x87, 0x44, 0x99, 0x2F]))),
        ]
        let (json, _) = render(lines) { output, _ in JSONView(output: output) }
        let objects = try jsonObjects(json)
        #expect(json.contains("\"AB\\u0000CD\""))
        #expect(objects[0]["line_hex"] == nil)
        #expect(objects[1]["line_hex"] as? String == "2d8744992f")
        let (text, _) = render(lines) { TextView(output: $0, diagnostics: $1, environment: [:]) }
        #expect(text == "AB\\x00CD\n-\\x87D\\x99/\n")
    }

    /// A reply in doubt is marked in text and JSON (`in_doubt`); a line whose control
    /// sequences were removed shows its text, and JSON keeps the exact bytes.
    @Test func replyInDoubtAndControlSequences() throws {
        let cleaned = ControlSequences.cleaned(Line(Array("\u{1B}[1;31mFAIL\u{1B}[0m".utf8)))
        let event = DeviceEvent.Kind.session(
            .replied(
                RequestID(value: 1), command: "TEST", reply: Reply(lines: [cleaned], isInDoubt: true),
                roundTrip: .milliseconds(3)))
        let (text, _) = render([event]) { TextView(output: $0, diagnostics: $1, environment: [:]) }
        #expect(text == "TEST → FAIL  (3 ms)  [in doubt: may not be this command's reply]\n")
        let (json, _) = render([event]) { output, _ in JSONView(output: output) }
        let object = try #require(jsonObjects(json).first)
        #expect(object["in_doubt"] as? Bool == true)
        #expect(object["lines"] as? [String] == ["FAIL"])
        #expect(object["lines_hex"] as? [String] == ["1b5b313b33316d4641494c1b5b306d"])
        let (plain, _) = render([Self.reply]) { output, _ in JSONView(output: output) }
        #expect(try #require(jsonObjects(plain).first)["in_doubt"] == nil)
    }

    @Test func notificationReadingsAndUnterminatedTail() throws {
        let events: [DeviceEvent.Kind] = [
            .session(.notification(Line("!READING temp=22.87 hum=41.3 mode=auto"))),
            .session(.notification(Line(Array("Blorp".utf8), ending: .unterminated))),
            .disconnected(reason: "device hung up"),
        ]
        let (json, _) = render(events) { output, _ in JSONView(output: output) }
        let objects = try jsonObjects(json)
        let readings = try #require(objects[0]["readings"] as? [String: Any])
        #expect(readings["temp"] as? Double == 22.87)
        #expect(readings["mode"] as? String == "auto")
        #expect(objects[1]["line_ending"] as? String == "unterminated")
        #expect(objects[2]["type"] as? String == "disconnected")
        let (text, diagnostics) = render(events) { TextView(output: $0, diagnostics: $1, environment: [:]) }
        #expect(text.hasSuffix("Blorp [unterminated]\n"))
        #expect(diagnostics == "disconnected: /dev/ttyUSB0: device hung up\n")
    }

    /// A reading JSON cannot hold as a number (`!B temp=nan\r\n`, also `inf`, `1e999`,
    /// `-infinity`) made JSONEncoder throw, and the whole record was skipped. It is
    /// now written, with the device's text as a string.
    @Test(arguments: ["nan", "inf", "1e999", "-infinity"])
    func notificationWithANonFiniteReadingIsWritten(value: String) throws {
        let (json, _) = render([.session(.notification(Line("!B temp=\(value)")))]) { output, _ in
            JSONView(output: output)
        }
        let objects = try jsonObjects(json)
        #expect(objects.count == 1)
        #expect(objects.first?["line"] as? String == "!B temp=\(value)")
        let readings = try #require(objects.first?["readings"] as? [String: Any])
        #expect(readings["temp"] as? String == value)
    }

    /// `Double("nan")` and `Double("1e999")` (infinity) were taken as numbers, and JSON
    /// cannot encode them, so the whole notification record was dropped.
    @Test func notificationWithNanOrHugeValuesIsStillWritten() throws {
        let (json, _) = render([.session(.notification(Line("!R a=nan b=1e999 c=2")))]) { output, _ in
            JSONView(output: output)
        }
        let object = try #require(jsonObjects(json).first)
        let readings = try #require(object["readings"] as? [String: Any])
        #expect(readings["a"] as? String == "nan")
        #expect(readings["b"] as? String == "1e999")
        #expect(readings["c"] as? Double == 2)
    }

    /// A unit written in the value stays in the notification record's text.
    @Test func notificationValuesWithAUnitKeepTheirText() throws {
        let (json, _) = render([.session(.notification(Line("!R v=5.00V t=-1.5e-3 s=ON")))]) { output, _ in
            JSONView(output: output)
        }
        let readings = try #require(jsonObjects(json).first?["readings"] as? [String: Any])
        #expect(readings["v"] as? String == "5.00V")
        #expect(readings["t"] as? Double == -0.0015)
        #expect(readings["s"] as? String == "ON")
    }

    @Test func presenterTracksIdentityReadingsAndCounts() {
        var presenter = Presenter(port: "p")
        _ = presenter.handle(DeviceEvent(time: time, kind: Self.reply))
        _ = presenter.handle(DeviceEvent(time: time, kind: .session(.notification(Line("!READING temp=22.87")))))
        #expect(presenter.state.identity?.manufacturer == "TETHER")
        #expect(presenter.state.identity?.firmware == "1.0")
        #expect(presenter.state.readings.first { $0.latest.name == "temp" }?.latest.number == 22.87)
        #expect(presenter.state.counts.replies == 1)
        #expect(presenter.state.counts.notifications == 1)
        #expect(presenter.state.recentExchanges.map(\.command) == ["*IDN?"])
    }
}

extension Presenter {
    /// The single record one event produces, for view tests.
    static func record(_ kind: DeviceEvent.Kind, time: Date) -> ViewRecord {
        var presenter = Presenter(port: "p")
        return presenter.handle(DeviceEvent(time: time, kind: kind))[0]
    }
}

/// Pending text in the text and JSON views: in place on a terminal; elsewhere written as
/// it comes, its line finished when the rest arrives; a `pending_text` record in JSON.
@Suite struct PendingTextViewTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000.25)

    static let flashing: [DeviceEvent.Kind] =
        ["Erasing flash: ", "Erasing flash: .", "Erasing flash: .."].map {
            .session(.pendingText(Line(Array($0.utf8), ending: .unterminated), start: 0))
        } + [.session(.notification(Line("Erasing flash: ..done")))]

    private func render(_ events: [DeviceEvent.Kind], on view: any DeviceView) {
        var presenter = Presenter(port: "/dev/ttyUSB0")
        for kind in events {
            for record in presenter.handle(DeviceEvent(time: time, kind: kind)) {
                view.render(record, state: presenter.state)
            }
        }
    }

    /// On a terminal each report overwrites the one before on the same line, and the
    /// finished line replaces it there, with its line end.
    @Test func terminalDrawsInPlaceAndCompletesInPlace() {
        let terminal = BufferSink(isTerminal: true)
        render(Self.flashing, on: TextView(output: terminal, diagnostics: BufferSink(), environment: ["NO_COLOR": "1"]))
        let erase = "\r\u{1B}[K"
        #expect(
            terminal.text
                == erase + "Erasing flash: " + erase + "Erasing flash: ." + erase + "Erasing flash: .." + erase
                + "Erasing flash: ..done\n")
    }

    /// Text longer than the terminal is wide is shown by its end, so it never wraps.
    @Test func longPendingTextKeepsItsEndOnOneRow() {
        let terminal = BufferSink(isTerminal: true)
        let text = String(repeating: "#", count: 100) + " 99%"
        render(
            [.session(.pendingText(Line(Array(text.utf8), ending: .unterminated), start: 0))],
            on: TextView(output: terminal, diagnostics: BufferSink(), environment: ["NO_COLOR": "1"]))
        #expect(terminal.text == "\r\u{1B}[K…" + String(repeating: "#", count: 74) + " 99%")
    }

    /// To a pipe the line is there once: the pending text as it comes, then only what
    /// each report and the finished line add (as `tio | tee` leaves a log).
    @Test func pipeGetsEachLineOnce() {
        let pipe = BufferSink()
        render(Self.flashing, on: TextView(output: pipe, diagnostics: BufferSink(), environment: [:]))
        #expect(pipe.text == "Erasing flash: ..done\n")
    }

    /// To a pipe, with timestamps: the line keeps the time its first piece came.
    @Test func pipeStampsTheLineOnce() {
        let pipe = BufferSink()
        let view = TextView(
            output: pipe, diagnostics: BufferSink(), timestamps: Timestamper(), environment: [:])
        render(Self.flashing, on: view)
        #expect(pipe.text.split(separator: "\n").count == 1, "\(pipe.text)")
        #expect(pipe.text.hasSuffix(" Erasing flash: ..done\n"), "\(pipe.text)")
    }

    /// To a pipe, a report that goes back over what was written (a backspace) and a next
    /// record that is not the pending line's end each start a line of their own.
    @Test func pipeStartsANewLineWhenTheTextChangesOrAnotherRecordComes() {
        let pipe = BufferSink()
        let pending = ["=> ", "=> x", "=> x\u{08}y"].map {
            DeviceEvent.Kind.session(.pendingText(Line(Array($0.utf8), ending: .unterminated), start: 0))
        }
        render(
            pending + [.session(.notification(Line("other")))],
            on: TextView(output: pipe, diagnostics: BufferSink(), environment: [:]))
        #expect(pipe.text == "=> x\n=> y\nother\n")
    }

    /// U-Boot's countdown: text shows what the backspaces leave, on a terminal and to a
    /// pipe; JSON keeps the bytes.
    @Test func backspacesAreAppliedInTextAndKeptInJSON() throws {
        let countdown = Line(Array("Hit any key to stop autoboot:  2 \u{08}\u{08}\u{08} 1 \u{08}\u{08}\u{08} 0 ".utf8))
        let pipe = BufferSink()
        render(
            [.session(.notification(countdown))],
            on: TextView(output: pipe, diagnostics: BufferSink(), environment: [:]))
        #expect(pipe.text == "Hit any key to stop autoboot:  0 \n")
        let terminal = BufferSink(isTerminal: true)
        let pendingCountdown = Line(
            Array("Hit any key to stop autoboot:  2 \u{08}\u{08}\u{08} 1 ".utf8), ending: .unterminated)
        render(
            [.session(.pendingText(pendingCountdown, start: 0))],
            on: TextView(output: terminal, diagnostics: BufferSink(), environment: ["NO_COLOR": "1"]))
        #expect(terminal.text == "\r\u{1B}[KHit any key to stop autoboot:  1 ")
        let json = BufferSink()
        render([.session(.notification(countdown))], on: JSONView(output: json))
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(json.text.split(separator: "\n")[0].utf8)) as? [String: Any])
        #expect(
            object["line"] as? String == "Hit any key to stop autoboot:  2 \u{08}\u{08}\u{08} 1 \u{08}\u{08}\u{08} 0 ")
    }

    /// `--hex` shows the bytes themselves, backspaces included.
    @Test func hexKeepsBackspaces() {
        let pipe = BufferSink()
        render(
            [.session(.notification(Line(Array("1\u{08}2".utf8))))],
            on: TextView(output: pipe, diagnostics: BufferSink(), showsHex: true, environment: [:]))
        #expect(pipe.text.hasPrefix("31 08 32"), "\(pipe.text)")
    }

    /// JSON: a `pending_text` record with `text` (and `text_hex` when it is not exact),
    /// then the usual notification.
    @Test func jsonHasItsOwnRecordType() throws {
        let output = BufferSink()
        render(
            Self.flashing + [.session(.pendingText(Line([0x3E, 0xFF, 0x20], ending: .unterminated), start: 40))],
            on: JSONView(output: output))
        let objects = try output.text.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(
            objects.map { $0["type"] as? String } == [
                "pending_text", "pending_text", "pending_text", "notification", "pending_text",
            ])
        #expect(objects[1]["text"] as? String == "Erasing flash: .")
        #expect(objects[1]["text_ending"] == nil)
        #expect(objects[1]["text_hex"] == nil)
        #expect(objects[4]["text_hex"] as? String == "3eff20")
        #expect(objects[3]["line"] as? String == "Erasing flash: ..done")
    }
}
