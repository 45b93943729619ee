import FoundationEssentials
import TetherPresenter

/// The view for programs: JSON Lines on standard output, one object per record,
/// written (and so flushed) as soon as it is rendered — the records of one batch of a
/// device's events (``renderBatch(_:)``) together, at the batch's end. The schema, version
/// ``schemaVersion``, is documented field by field in `docs/JSON.md`.
///
/// Every device record has `v` (schema version), `type`, `time` (ISO 8601, UTC, ms)
/// and `port` (plus `device` in a run, for a named device); a run's own records are
/// described in `docs/SCRIPTING.md`. Keys are sorted so output is stable. A line of device text is a JSON
/// string (terminal control sequences removed); when that string is not exactly the
/// bytes received — they are not valid UTF-8 (U+FFFD for the bad bytes) or control
/// sequences were removed — a sibling `…_hex` field holds the exact bytes (lossless).
public struct JSONView: DeviceView {
    /// The version of the JSON Lines schema; bumped on incompatible change.
    public static let schemaVersion = 1

    private let output: BatchingSink

    /// Creates a JSON view writing to `output`.
    public init(output: any OutputSink = FileSink.standardOutput) {
        self.output = BatchingSink(output)
    }

    public func render(_ record: ViewRecord, state: ViewState) {
        let (time, port, device) = (record.time, state.port, state.device)
        switch record.event {
        case .notification(let line, let readings) where Self.isPlainNotification(line, readings: readings):
            return output.write { Self.appendPlainNotification(line, time: time, port: port, device: device, to: &$0) }
        case .sent(let command, let kind) where Self.isPlainSent(command, kind: kind):
            return output.write { Self.appendPlainSent(command, time: time, port: port, device: device, to: &$0) }
        case .exchanged(let exchange) where Self.isPlainReply(exchange):
            return output.write { Self.appendPlainReply(exchange, time: time, port: port, device: device, to: &$0) }
        default:
            break
        }
        var object = Self.fields(for: record.event)
        object["v"] = .int(Self.schemaVersion)
        object["time"] = .string(Self.timestamp(record.time))
        object["port"] = .string(state.port)
        if let device = state.device { object["device"] = .string(device) }
        write(object)
    }

    /// Holds the batch's records and writes them in one go at its end
    /// (`BatchingSink`): each record stays whole.
    public func renderBatch(_ render: () -> Void) { output.batch(render) }

    /// Writes one extra object (e.g. a run summary) with the common fields, as one
    /// line (``JSONWriter``; writing never fails to produce the line).
    public func write(_ object: [String: JSONValue]) {
        output.write { bytes in
            JSONWriter.append(.object(object), to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
    }

    static func fields(for event: ViewEvent) -> [String: JSONValue] {
        switch event {
        case .waiting(let port):
            return ["type": "waiting", "for": .string(port)]
        case .connected(_, let settings):
            return ["type": "connected", "settings": .string(settings)]
        case .sent(let command, let kind):
            var object: [String: JSONValue] = ["type": "sent", "command": .string(command.text)]
            // The exact bytes also when they are valid UTF-8 but not printable (Ctrl-C, ESC).
            if !command.isValidUTF8 || command.bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                object["command_hex"] = .string(ByteEscaping.hex(command.bytes, separator: ""))
            }
            if kind != .command { object["write"] = .string(kind.rawValue) }
            return object
        case .received(let bytes):
            var object: [String: JSONValue] = ["type": "received"]
            object.merge(lineFields("bytes", ViewLine(bytes: bytes))) { $1 }
            object["bytes_eol_hex"] = nil  // bytes as read, not a line
            return object
        case .exchanged(let exchange):
            return fields(for: exchange)
        case .notification(let line, let readings):
            var object: [String: JSONValue] = ["type": "notification"]
            object.merge(lineFields("line", line)) { $1 }
            if let level = line.level { object["level"] = .string(level.name) }
            if !readings.isEmpty {
                object["readings"] = .object(Dictionary(readings.map { ($0.name, eventValue($0)) }) { $1 })
            }
            return object
        case .partialReply(let command, let lines):
            var object: [String: JSONValue] = ["type": "partial_reply", "command": .string(command)]
            object.merge(linesFields("lines", lines)) { $1 }
            return object
        case .lateReply(let command, let lines, let isInDoubt):
            var object: [String: JSONValue] = ["type": "late_reply", "command": .string(command)]
            object.merge(linesFields("lines", lines)) { $1 }
            if isInDoubt { object["in_doubt"] = .bool(true) }
            return object
        case .settling(let note):
            var object: [String: JSONValue] = ["type": "settling", "reason": .string(note.reason.rawValue)]
            if let line = note.line { object.merge(lineFields("line", line)) { $1 } }
            if let command = note.command { object["command"] = .string(command) }
            return object
        case .held(let reason, let duration, let command):
            return [
                "type": "held", "reason": .string(reason), "held_ms": .int(Int(duration.milliseconds)),
                "command": .string(command),
            ]
        case .pendingText(let line):
            var object: [String: JSONValue] = ["type": "pending_text"]
            object.merge(lineFields("text", line)) { $1 }
            object["text_ending"] = nil  // always unterminated: the record type says so
            object["text_eol_hex"] = nil
            return object
        case .disconnected(_, let reason):
            return ["type": "disconnected", "reason": .string(reason)]
        case .reconnecting:
            return ["type": "reconnecting"]
        case .reconnected(_, let settings, let attempts, let downtime):
            return [
                "type": "reconnected", "settings": .string(settings), "attempts": .int(attempts),
                "downtime_ms": .int(Int(downtime.milliseconds)),
            ]
        case .missed(let count):
            return ["type": "missed", "count": .int(count)]
        case .data(let bytes):
            return [
                "type": "data", "length": .int(bytes.count),
                "bytes_hex": .string(ByteEscaping.hex(bytes, separator: "")),
            ]
        case .commandMode(let line):
            var object: [String: JSONValue] = ["type": "command_mode"]
            object.merge(lineFields("line", line)) { $1 }
            return object
        case .invalidLine(let line, let reason):
            var object: [String: JSONValue] = ["type": "invalid_line", "reason": .string(reason)]
            object.merge(lineFields("line", line)) { $1 }
            return object
        case .lineControl(let control):
            return fields(for: control)
        case .lineEvent(let condition):
            return lineEventFields(condition)
        case .warning(let message):
            return ["type": "warning", "message": .string(message)]
        case .settingNotApplied(let warning):
            return [
                "type": "warning", "message": .string(warning.description), "setting": .string(warning.setting),
                "requested": .string(warning.requested), "actual": .string(warning.actual),
            ]
        }
    }

    /// `line_sequence` (name, steps), `lines_set` (the lines a step set) or
    /// `settings_changed` (settings) — docs/JSON.md, "Line control".
    static func fields(for control: LineControlRecord) -> [String: JSONValue] {
        func lines(_ step: LineControlRecord.Step) -> [String: JSONValue] {
            var object: [String: JSONValue] = [:]
            if let dtr = step.dtr { object["dtr"] = .bool(dtr) }
            if let rts = step.rts { object["rts"] = .bool(rts) }
            if let isBreak = step.isBreak { object["break"] = .bool(isBreak) }
            return object
        }
        switch control {
        case .sequence(let name, let steps):
            let list = steps.map { step -> JSONValue in
                var object = lines(step)
                object["hold_ms"] = .int(step.holdMilliseconds)
                return .object(object)
            }
            return ["type": "line_sequence", "name": .string(name), "steps": .array(list)]
        case .lines(let step):
            var object = lines(step)
            object["type"] = "lines_set"
            return object
        case .settingsChanged(let settings):
            return ["type": "settings_changed", "settings": .string(settings)]
        }
    }

    static func fields(for exchange: Exchange) -> [String: JSONValue] {
        var object: [String: JSONValue] = ["command": .string(exchange.command)]
        if let bytes = exchange.commandBytes { object["command_hex"] = .string(ByteEscaping.hex(bytes, separator: "")) }
        switch exchange.outcome {
        case .reply(let lines, let finalResult, let isError, let roundTrip):
            object["type"] = "reply"
            object["error"] = .bool(isError)
            object["rtt_ms"] = .int(Int(roundTrip.milliseconds))
            object.merge(linesFields("lines", lines)) { $1 }
            if let finalResult { object.merge(lineFields("final", finalResult)) { $1 } }
            if let meaning = exchange.errorDescription { object["error_description"] = .string(meaning) }
            if exchange.isInDoubt { object["in_doubt"] = .bool(true) }
            if let identity = exchange.identity { object["identity"] = identityObject(identity) }
        case .timedOut(let timeout):
            object["type"] = "timeout"
            object["timeout_ms"] = .int(Int(timeout.milliseconds))
        case .failed(let reason):
            object["type"] = "failed"
            object["reason"] = .string(reason)
        }
        return object
    }

    /// A notification field in an event record: a JSON number when the value is just a
    /// finite number, else the text as sent (`"5.00V"` keeps its unit, `"ON"` stays
    /// text, and `nan`, `inf`, `-infinity` or `1e999`, which JSON cannot hold as
    /// numbers, stay the device's text).
    private static func eventValue(_ reading: Reading) -> JSONValue {
        guard let number = reading.number, number.isFinite,
            !(reading.unit.map(reading.value.hasSuffix) ?? false)
        else {
            return .string(reading.value)
        }
        return .double(number)
    }

    /// An identity as `{"manufacturer","model","serial","firmware"}`, absent fields `null`.
    static func identityObject(_ identity: DeviceIdentity) -> JSONValue {
        let fields = [
            ("manufacturer", identity.manufacturer), ("model", identity.model),
            ("serial", identity.serialNumber), ("firmware", identity.firmware),
        ]
        return .object(Dictionary(uniqueKeysWithValues: fields.map { ($0.0, $0.1.map(JSONValue.string) ?? .null) }))
    }

    /// `key` (the line's text, its payload left out), `key_hex` when the text is not
    /// exact, `key_ending` when it did not end in a terminator, `key_eol_hex` (the bytes
    /// that ended it, ``eolHex(_:)``), and for a payload
    /// `key_payload_hex`, `key_payload_length` (bytes) and `key_payload_offset` (where
    /// it lies in the line's bytes) — docs/JSON.md, "Binary payloads".
    static func lineFields(_ key: String, _ line: ViewLine) -> [String: JSONValue] {
        let text = line.outsidePayload
        var object: [String: JSONValue] = [key: .string(text.text)]
        if !text.isExact { object[key + "_hex"] = .string(ByteEscaping.hex(text.receivedBytes, separator: "")) }
        if line.ending != .terminated { object[key + "_ending"] = .string(line.ending.rawValue) }
        object[key + "_eol_hex"] = .string(eolHex(line))
        if let range = line.payloadRange {
            object[key + "_payload_hex"] = .string(ByteEscaping.hex(Array(line.bytes[range]), separator: ""))
            object[key + "_payload_length"] = .int(range.count)
            object[key + "_payload_offset"] = .int(range.lowerBound)
        }
        if !line.symbols.isEmpty { object[key + "_symbols"] = .array(line.symbols.map(symbolFields)) }
        return object
    }

    /// A crash address's object in `…_symbols` (docs/JSON.md, "Crash addresses").
    private static func symbolFields(_ symbol: AddressSymbol) -> JSONValue {
        var object: [String: JSONValue] = ["address": .string(symbol.hexAddress), "field": .string(symbol.field)]
        switch symbol.lookup {
        case .outside:
            object["outside"] = .bool(true)
        case .frames(let frames):
            object["frames"] = .array(
                frames.map { frame in
                    var fields: [String: JSONValue] = ["function": .string(frame.function)]
                    if let file = frame.file { fields["file"] = .string(file) }
                    if let line = frame.line { fields["line"] = .int(line) }
                    if frame.isInlined { fields["inlined"] = .bool(true) }
                    return .object(fields)
                })
        }
        return .object(object)
    }

    /// As ``lineFields(_:_:)`` for a list of lines: each field a list, `null` for a line
    /// without a payload in the payload fields.
    private static func linesFields(_ key: String, _ lines: [ViewLine]) -> [String: JSONValue] {
        let texts = lines.map(\.outsidePayload)
        var object: [String: JSONValue] = [key: .array(texts.map { .string($0.text) })]
        if texts.contains(where: { !$0.isExact }) {
            object[key + "_hex"] = .array(texts.map { .string(ByteEscaping.hex($0.receivedBytes, separator: "")) })
        }
        object[key + "_eol_hex"] = .array(lines.map { .string(eolHex($0)) })
        if lines.contains(where: { $0.payloadRange != nil }) {
            func each(_ value: (ViewLine, Range<Int>) -> JSONValue) -> JSONValue {
                .array(lines.map { line in line.payloadRange.map { value(line, $0) } ?? .null })
            }
            object[key + "_payload_hex"] = each { .string(ByteEscaping.hex(Array($0.bytes[$1]), separator: "")) }
            object[key + "_payload_length"] = each { .int($1.count) }
            object[key + "_payload_offset"] = each { .int($1.lowerBound) }
        }
        return object
    }

    /// The bytes that ended `line` as lowercase hex (`"0d0a"`), `""` when none did (an
    /// overlong piece, the bytes left at the end, a line a payload ended).
    static func eolHex(_ line: ViewLine) -> String {
        switch line.terminator {
        case .cr?: "0d"
        case .lf?: "0a"
        case .crlf?: "0d0a"
        case nil: ""
        }
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2026-11-29T21:04:08.106Z`.
    static func timestamp(_ date: Date) -> String {
        ISO8601Timestamp.string(date)
    }
}
