import FoundationEssentials
import TetherPresenter

/// The records of the hot paths — a fast device's notifications, `tether query`'s
/// commands and replies — written straight into bytes, their keys in sorted order,
/// without a dictionary per record. The bytes are those ``JSONWriter`` writes for the
/// object ``JSONView/fields(for:)`` gives with the common fields
/// (`JSONWriterDifferentialTests` checks both against `JSONEncoder`); a record that is
/// not plain takes that general path.
extension JSONView {
    /// Whether `line`'s JSON string is its bytes as they are (escapes aside): all below
    /// 0x80, nothing removed, no payload, no crash addresses' symbols.
    static func isPlain(_ line: ViewLine) -> Bool {
        line.exactBytes == nil && line.payloadRange == nil && line.symbols.isEmpty
            && line.bytes.allSatisfy { $0 < 0x80 }
    }

    /// Whether a notification's record is plain: its line is (``isPlain(_:)``) and it
    /// holds no readings, as the lines of a fast device are.
    static func isPlainNotification(_ line: ViewLine, readings: [Reading]) -> Bool {
        readings.isEmpty && isPlain(line)
    }

    /// Whether a sent record is plain: a command (not a raw or immediate write) of
    /// printable ASCII, so it has no `command_hex` and no `write`.
    static func isPlainSent(_ command: ViewLine, kind: ViewEvent.SentKind) -> Bool {
        kind == .command && isPlain(command) && !command.bytes.contains { $0 < 0x20 || $0 == 0x7F }
    }

    /// Whether an exchange's record is plain: a reply whose lines and final result
    /// are plain (``isPlain(_:)``), to a command whose text is its bytes, with no
    /// error description, identity or doubt.
    static func isPlainReply(_ exchange: Exchange) -> Bool {
        guard case .reply(let lines, let finalResult, _, _) = exchange.outcome else { return false }
        return exchange.commandBytes == nil && exchange.errorDescription == nil && exchange.identity == nil
            && !exchange.isInDoubt && lines.allSatisfy(isPlain) && (finalResult.map(isPlain) ?? true)
    }

    /// Appends the record of a plain notification (``isPlainNotification(_:readings:)``)
    /// to `output`, its line end included.
    static func appendPlainNotification(
        _ line: ViewLine, time: Date, port: String, device: String?, to output: inout [UInt8]
    ) {
        output.append(UInt8(ascii: "{"))
        if let device {
            output.append(contentsOf: #""device":"#.utf8)
            JSONWriter.appendString(device, to: &output)
            output.append(UInt8(ascii: ","))
        }
        if let level = line.level {
            output.append(contentsOf: #""level":""#.utf8)
            output.append(contentsOf: level.name.utf8)
            output.append(contentsOf: #"","#.utf8)
        }
        output.append(contentsOf: #""line":"#.utf8)
        appendPlain(line, to: &output)
        appendEnding("line", of: line, to: &output)
        appendEOL("line", of: line, to: &output)
        appendPort(port, to: &output)
        appendEnd(time: time, type: "notification", to: &output)
    }

    /// Appends the record of a plain sent command (``isPlainSent(_:kind:)``) to
    /// `output`, its line end included.
    static func appendPlainSent(
        _ command: ViewLine, time: Date, port: String, device: String?, to output: inout [UInt8]
    ) {
        output.append(contentsOf: #"{"command":"#.utf8)
        appendPlain(command, to: &output)
        appendDevice(device, to: &output)
        appendPort(port, to: &output)
        appendEnd(time: time, type: "sent", to: &output)
    }

    /// Appends the record of a plain reply (``isPlainReply(_:)``) to `output`, its
    /// line end included.
    static func appendPlainReply(
        _ exchange: Exchange, time: Date, port: String, device: String?, to output: inout [UInt8]
    ) {
        guard case .reply(let lines, let finalResult, let isError, let roundTrip) = exchange.outcome else { return }
        output.append(contentsOf: #"{"command":"#.utf8)
        JSONWriter.appendString(exchange.command, to: &output)
        appendDevice(device, to: &output)
        output.append(contentsOf: (isError ? #","error":true"# : #","error":false"#).utf8)
        if let finalResult {
            output.append(contentsOf: #","final":"#.utf8)
            appendPlain(finalResult, to: &output)
            appendEnding("final", of: finalResult, to: &output)
            appendEOL("final", of: finalResult, to: &output)
        }
        output.append(contentsOf: #","lines":["#.utf8)
        for (index, line) in lines.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            appendPlain(line, to: &output)
        }
        output.append(contentsOf: #"],"lines_eol_hex":["#.utf8)
        for (index, line) in lines.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: eolHex(line).utf8)
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: "]"))
        appendPort(port, to: &output)
        output.append(contentsOf: #","rtt_ms":"#.utf8)
        output.append(contentsOf: String(Int(roundTrip.milliseconds)).utf8)
        appendEnd(time: time, type: "reply", to: &output)
    }

    /// A plain line's bytes as a JSON string.
    private static func appendPlain(_ line: ViewLine, to output: inout [UInt8]) {
        line.bytes.withUnsafeBufferPointer { JSONWriter.appendString(utf8: $0, to: &output) }
    }

    /// `,"KEY_ending":"…"` when `line` did not end in a terminator.
    private static func appendEnding(_ key: String, of line: ViewLine, to output: inout [UInt8]) {
        guard line.ending != .terminated else { return }
        output.append(contentsOf: #",""#.utf8)
        output.append(contentsOf: key.utf8)
        output.append(contentsOf: #"_ending":"#.utf8)
        JSONWriter.appendString(line.ending.rawValue, to: &output)
    }

    /// `,"KEY_eol_hex":"…"`: the bytes that ended `line` (``JSONView/eolHex(_:)``).
    private static func appendEOL(_ key: String, of line: ViewLine, to output: inout [UInt8]) {
        output.append(contentsOf: #",""#.utf8)
        output.append(contentsOf: key.utf8)
        output.append(contentsOf: #"_eol_hex":""#.utf8)
        output.append(contentsOf: eolHex(line).utf8)
        output.append(UInt8(ascii: "\""))
    }

    /// `,"device":"…"` for a run's named device.
    private static func appendDevice(_ device: String?, to output: inout [UInt8]) {
        guard let device else { return }
        output.append(contentsOf: #","device":"#.utf8)
        JSONWriter.appendString(device, to: &output)
    }

    /// `,"port":"…"`.
    private static func appendPort(_ port: String, to output: inout [UInt8]) {
        output.append(contentsOf: #","port":"#.utf8)
        JSONWriter.appendString(port, to: &output)
    }

    /// The common fields after `port` — `time`, `type`, `v` — and the record's end.
    private static func appendEnd(time: Date, type: String, to output: inout [UInt8]) {
        output.append(contentsOf: #","time":""#.utf8)
        ISO8601Timestamp.append(time, to: &output)
        output.append(contentsOf: #"","type":""#.utf8)
        output.append(contentsOf: type.utf8)
        output.append(contentsOf: #"","v":"#.utf8)
        output.append(contentsOf: String(schemaVersion).utf8)
        output.append(contentsOf: "}\n".utf8)
    }
}
