import Foundation
import Testing

@testable import TetherPresenter
@testable import TetherViews

/// `JSONWriter` against Foundation: every record type the JSON view writes, and
/// fuzzed device lines (NUL, control characters, bytes that are not UTF-8, U+2028),
/// must be written byte for byte as `JSONEncoder` (sorted keys, unescaped slashes)
/// writes them, and read back by `JSONDecoder` as the same value.
@Suite struct JSONWriterDifferentialTests {
    static let time = Date(timeIntervalSince1970: 1_800_000_000.25)

    static func line(_ bytes: [UInt8], _ ending: ViewLine.Ending = .terminated) -> ViewLine {
        ViewLine(bytes: bytes, ending: ending)
    }

    static func exchange(_ outcome: Exchange.Outcome) -> Exchange {
        Exchange(command: "AT+CPIN?", outcome: outcome, time: time)
    }

    /// One or more of every device record the view writes.
    static let deviceEvents: [ViewEvent] = [
        .waiting(for: "a port matching '0403:6001'"),
        .connected(port: "/dev/ttyUSB0", settings: "115200 8N1"),
        .sent(command: ViewLine("MEAS:VOLT? \"x\" \\ /")),
        .exchanged(
            exchange(.reply(lines: [ViewLine("+1.23")], finalResult: nil, isError: false, roundTrip: .milliseconds(3)))),
        .exchanged(
            Exchange(
                command: "AT+CPIN?",
                outcome: .reply(
                    lines: [line([0x2D, 0x87])], finalResult: ViewLine("+CME ERROR: 10"), isError: true,
                    roundTrip: .milliseconds(12)),
                time: time, errorDescription: "SIM not inserted",
                identity: DeviceIdentity(parsing: "TETHER,ENV-1,,1.0"))),
        .exchanged(exchange(.timedOut(timeout: .milliseconds(1000)))),
        .exchanged(exchange(.failed(reason: "device hung up"))),
        .notification(
            ViewLine("!READING temp=22.87 hum=41 big=1e300"),
            readings: [
                Reading(name: "temp", value: "22.87", time: time),
                Reading(name: "hum", value: "41", time: time),
                Reading(name: "big", value: "1e300", time: time),
                Reading(name: "mode", value: "auto", time: time),
                Reading(name: "v", value: "5.00V", time: time, describedUnit: "V"),
            ]),
        .notification(line(Array("Blorp".utf8), .unterminated), readings: []),
        .notification(line([0x41, 0x00, 0xFF], .overlong), readings: []),
        .partialReply(command: "AT+COPS?", lines: [ViewLine("+COPS: 0"), line([0xC0])]),
        .lateReply(command: "TEMP?", lines: [ViewLine("22.5")]),
        .disconnected(port: "p", reason: "device hung up"),
        .reconnecting(port: "p"),
        .reconnected(port: "p", settings: "9600 7E1", attempts: 3, downtime: .milliseconds(1500)),
        .missed(count: 42),
        .warning("write failed: EAGAIN"),
        .settingNotApplied(SettingWarning(port: "p", setting: "parity", requested: "odd", actual: "none")),
    ]

    /// Every record a run writes.
    static let runEvents: [RunEvent] = [
        .checked(
            CheckResult(
                status: .failed, location: SourceLocation(file: "a.txt", line: 3), description: "TEMP? ~ 2.",
                device: "psu", actual: ["30.1"], detail: "no match")),
        .checked(CheckResult(status: .notRun, location: SourceLocation(file: "a.txt", line: nil), description: "x")),
        .emitted(
            .object([
                "n": .int(-3), "x": .double(0.1), "e": .double(1e-7), "big": .double(123_456_789_012),
                "list": .array([.bool(true), .null, .string("é\u{2028}")]), "inf": .double(.infinity),
            ]), location: SourceLocation(file: "s.lua", line: 9)),
        .scriptFailed(ScriptProblem(location: nil, message: "s.lua:2: attempt to call nil")),
        .finished(RunSummary()),
    ]

    static func objects() -> [[String: JSONValue]] {
        deviceEvents.map { JSONView.fields(for: $0) } + runEvents.map { JSONView.fields(for: $0) }
    }

    @Test func everyRecordTypeIsWrittenAsJSONEncoderWritesIt() throws {
        for object in Self.objects() {
            try expectSameAsFoundation(object)
        }
    }

    /// A line with its log level, as the Presenter gives it (a `level` field).
    static func levelled(_ text: String, _ level: LogLevel) -> ViewLine {
        var line = ViewLine(text)
        line.level = level
        return line
    }

    /// What the view renders for each record — a notification, a sent command or a
    /// reply of plain lines is written straight into bytes, not through a dictionary — is `JSONEncoder`'s text
    /// of the record's fields and the common ones, for a device of a run and without.
    @Test func renderedRecordsAreWrittenAsJSONEncoderWritesThem() throws {
        let plain: [ViewEvent] = [
            .notification(ViewLine("0000000001 the quick brown fox jumps..."), readings: []),
            .notification(Self.line(Array("tab\there \"q\" \\ /".utf8) + [0x00, 0x1B, 0x7F], .overlong), readings: []),
            .notification(Self.line([], .unterminated), readings: []),
            .notification(Self.levelled("E (1234) wifi: connect failed", .error), readings: []),
            .sent(command: ViewLine("MEAS:VOLT?")),
            .sent(command: ViewLine("")),
            .sent(command: ViewLine("AT\u{1B}"), kind: .command),
            .sent(command: ViewLine("+++"), kind: .raw),
            .sent(command: Self.line([0x03]), kind: .immediate),
            .exchanged(
                Self.exchange(
                    .reply(lines: [ViewLine("+1.23456789E+00")], finalResult: nil, isError: false, roundTrip: .zero))),
            .exchanged(
                Self.exchange(
                    .reply(
                        lines: [ViewLine("+CPIN: READY"), Self.line(Array("a\tb\"\\".utf8) + [0x7F])],
                        finalResult: ViewLine("OK"), isError: false, roundTrip: .milliseconds(2_500)))),
            .exchanged(
                Self.exchange(
                    .reply(
                        lines: [], finalResult: Self.line(Array("ERROR".utf8), .unterminated), isError: true,
                        roundTrip: .milliseconds(7)))),
            .exchanged(
                Exchange(
                    command: "*IDN?",
                    outcome: .reply(
                        lines: [ViewLine("TETHER,ENV-1,SIM0001,1.0")], finalResult: nil, isError: false,
                        roundTrip: .milliseconds(1)),
                    time: Self.time, identity: DeviceIdentity(parsing: "TETHER,ENV-1,SIM0001,1.0"))),
            .exchanged(
                Exchange(
                    command: "TEMP?",
                    outcome: .reply(lines: [ViewLine("22.5")], finalResult: nil, isError: false, roundTrip: .zero),
                    time: Self.time, isInDoubt: true)),
            .exchanged(
                Exchange(
                    command: "\u{FFFD}",
                    outcome: .reply(lines: [ViewLine("x")], finalResult: nil, isError: false, roundTrip: .zero),
                    time: Self.time, commandBytes: [0xFF])),
        ]
        for event in Self.deviceEvents + plain {
            for device in [nil, "psu \"1\""] {
                try expectRenderedAsFoundation(event, state: ViewState(port: "/dev/tty\"USB0\"", device: device))
            }
        }
    }

    /// C1 controls reached JSON strings raw (U+009B is CSI to a terminal showing the
    /// record): they are escaped, and DEL with them.
    @Test func c1ControlsAndDELAreEscaped() {
        let written = JSONWriter.line(.string("a\u{7F}b\u{80}c\u{9B}31md\u{9F}e\u{A0}f"))
        #expect(String(decoding: written, as: UTF8.self) == #""a\u007fb\u0080c\u009b31md\u009fe\#u{A0}f""# + "\n")
    }

    @Test func fuzzedLinesAreWrittenAsJSONEncoderWritesThem() throws {
        // A seeded linear congruential generator (Knuth's MMIX constants): a failing
        // case replays.
        var state: UInt64 = 0x7E7E_0010
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet: [[UInt8]] = [
            [0x00], [0x01], [0x08], [0x09], [0x0A], [0x0C], [0x0D], [0x1B], [0x1F], [0x7F], [0x22], [0x5C], [0x2F],
            [0x41], [0x7A], [0x20], [0x3D], [0x80], [0xBF], [0xC0], [0xC3], [0xE2, 0x80], [0xF0, 0x9F], [0xFF], [0xFE],
            Array("é".utf8), Array("\u{85}".utf8), Array("\u{9B}".utf8), Array("\u{9F}".utf8), Array("\u{A0}".utf8),
            Array("\u{2028}".utf8), Array("\u{2029}".utf8), Array("😀".utf8), Array("€".utf8),
            Array("temp=nan".utf8), Array(" x=1e999".utf8), Array(" y=-infinity".utf8),
        ]
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(next() % 24) {
                bytes += alphabet[Int(next() % UInt64(alphabet.count))]
            }
            // Half the lines carry a tag, so that they have readings (`Reading`).
            let viewLine = ViewLine(bytes: (next() % 2 == 0 ? Array("!R ".utf8) : []) + bytes)
            let readings = Reading.fields(in: viewLine.text, at: Self.time, units: [:])
            try expectSameAsFoundation(JSONView.fields(for: .notification(viewLine, readings: readings)))
            try expectSameAsFoundation(JSONView.fields(for: .lateReply(command: viewLine.text, lines: [viewLine])))
            try expectRenderedAsFoundation(.notification(viewLine, readings: readings), state: ViewState(port: "p"))
            try expectRenderedAsFoundation(.sent(command: viewLine), state: ViewState(port: "p"))
            let reply = Exchange.Outcome.reply(
                lines: [viewLine, ViewLine("OK")], finalResult: next() % 2 == 0 ? viewLine : nil,
                isError: next() % 2 == 0, roundTrip: .milliseconds(Int(next() % 5_000)))
            try expectRenderedAsFoundation(
                .exchanged(Exchange(command: viewLine.text, outcome: reply, time: Self.time)),
                state: ViewState(port: "p", device: next() % 2 == 0 ? "psu" : nil))
        }
    }

    /// `JSONEncoder`'s text with DEL and the C1 controls escaped as `JSONWriter` escapes
    /// them (JSON allows them raw; outside strings they cannot occur).
    private func escapingC1(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                result += "\\u00" + String(scalar.value, radix: 16)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Checks the line the view renders for `event` against `JSONEncoder`'s text of
    /// the record's fields and the common ones.
    private func expectRenderedAsFoundation(_ event: ViewEvent, state: ViewState) throws {
        let sink = BufferSink()
        JSONView(output: sink).render(ViewRecord(time: Self.time, event: event), state: state)
        var object = JSONView.fields(for: event)
        object["v"] = .int(JSONView.schemaVersion)
        object["time"] = .string(JSONView.timestamp(Self.time))
        object["port"] = .string(state.port)
        if let device = state.device { object["device"] = .string(device) }
        try expectSameAsFoundation(object, written: Data(sink.text.utf8))
    }

    /// Checks `written`, by default ``JSONWriter``'s line of `object`, against
    /// `JSONEncoder`'s.
    private func expectSameAsFoundation(_ object: [String: JSONValue], written: Data? = nil) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = try encoder.encode(object) + Data("\n".utf8)
        let written = written ?? Data(JSONWriter.line(.object(object)))
        #expect(
            String(decoding: written, as: UTF8.self) == escapingC1(String(decoding: expected, as: UTF8.self)),
            "\(object)")
        let decoder = JSONDecoder()
        #expect(try decoder.decode(JSONValue.self, from: written) == decoder.decode(JSONValue.self, from: expected))
    }
}
