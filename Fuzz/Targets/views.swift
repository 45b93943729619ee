import Foundation
import TetherPresenter
import TetherViews

@testable import TetherModel

/// Fuzz target `views`: device events through the ``Presenter`` into both views.
///
/// The input is a sequence of device events (connections, commands, replies, partial
/// and late replies, notifications with readings, failures, warnings) with arbitrary
/// bytes and text. Checked for every record:
/// - the JSON view writes exactly one line, a JSON object with `v` and `type`;
/// - device text is lossless in JSON: `line`/`lines` (or their `_hex` twins) give the
///   bytes back exactly;
/// - the text view writes no raw control byte (only the line feed ending each line),
///   and shows a notification as its escaped bytes, which unescape to the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzViews(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var presenter = Presenter(port: input.text(), device: input.number(below: 2) == 0 ? nil : input.text())
    let json = BufferSink()
    let text = BufferSink()
    let diagnostics = BufferSink()
    let jsonView = JSONView(output: json)
    let textView = TextView(output: text, diagnostics: diagnostics, environment: [:])
    var nextID = 1
    while !input.isEmpty {
        let kind = EventSource.event(&input, nextID: &nextID)
        trace("event \(kind)")
        for record in presenter.handle(DeviceEvent(time: Date(timeIntervalSince1970: 1.8e9), kind: kind)) {
            let (jsonBefore, textBefore, diagnosticsBefore) = (
                json.text.utf8.count, text.text.utf8.count, diagnostics.text.utf8.count
            )
            jsonView.render(record, state: presenter.state)
            textView.render(record, state: presenter.state)
            let written = Array(json.text.utf8.dropFirst(jsonBefore))
            let shown = Array(text.text.utf8.dropFirst(textBefore))
            let told = Array(diagnostics.text.utf8.dropFirst(diagnosticsBefore))
            JSONCheck.check(written, record: record)
            TextCheck.check(shown + told, record: record, isShown: !shown.isEmpty)
        }
    }
    return 0
}

extension FuzzInput {
    /// Text of up to 24 bytes (invalid UTF-8 replaced, as Swift strings hold it).
    mutating func text() -> String {
        String(decoding: chunk(limit: 24), as: UTF8.self)
    }

    /// A line: arbitrary bytes, a reading-shaped notification or a typical reply.
    mutating func line() -> Line {
        let samples = [
            "!READING temp=22.87 hum=41.3", "!B temp=nan", "!B x=inf y=-infinity z=1e999", "*IDN", "OK",
            "+CME ERROR: 10", "TETHER,ENV-1,SIM0001,1.0", "a=b=c d= =e",
        ]
        let choice = number(below: samples.count + 2)
        var bytes = choice < samples.count ? Array(samples[choice].utf8) : chunk(limit: 40)
        if choice == samples.count { bytes += chunk(limit: 8) }
        let endings: [Line.Ending] = [.terminated, .terminated, .overlong, .unterminated]
        return Line(bytes, ending: endings[number(below: endings.count)])
    }

    mutating func lines() -> [Line] {
        (0..<number(below: 4)).map { _ in line() }
    }
}

enum EventSource {
    static func event(_ input: inout FuzzInput, nextID: inout Int) -> DeviceEvent.Kind {
        let id = RequestID(value: nextID)
        nextID += 1
        let commands = ["*IDN?", "AT+CSQ", "TEMP?"]
        let choice = input.number(below: commands.count + 1)
        let command = choice < commands.count ? commands[choice] : input.text()
        switch input.number(below: 13) {
        case 0: return .connected(port: input.text(), settings: input.text())
        case 1:
            return .session(.sent(id, command: command, bytes: Array(command.utf8), isRaw: input.number(below: 2) == 0))
        case 2, 3:
            let reply = Reply(
                lines: input.lines(), finalResult: input.number(below: 2) == 0 ? nil : input.line(),
                isError: input.number(below: 2) == 0, errorDescription: input.number(below: 2) == 0 ? nil : input.text()
            )
            return .session(
                .replied(id, command: command, reply: reply, roundTrip: .milliseconds(input.number(below: 256))))
        case 4: return .session(.partialReply(id, command: command, lines: input.lines()))
        case 5:
            let failures: [RequestFailure] = [
                .timedOut(.milliseconds(input.number(below: 256))), .disconnected(reason: input.text()),
                .notSent(reason: input.text()),
            ]
            return .session(.failed(id, command: command, failure: failures[input.number(below: failures.count)]))
        case 6, 7, 8: return .session(.notification(input.line()))
        case 9: return .session(.lateReply(command: command, reply: Reply(lines: input.lines())))
        case 10: return .disconnected(reason: input.text())
        case 11:
            return input.number(below: 2) == 0
                ? .reconnecting
                : .reconnected(
                    port: input.text(), settings: input.text(), attempts: input.number(below: 256),
                    downtime: .milliseconds(input.number(below: 256) * 100))
        default:
            return input.number(below: 2) == 0 ? .missed(count: input.number(below: 256)) : .error(input.text())
        }
    }
}

enum JSONCheck {
    static func check(_ written: [UInt8], record: ViewRecord) {
        require(written.last == 0x0A, "JSON record not ended by a line feed: \(record.event)")
        require(written.filter { $0 == 0x0A }.count == 1, "JSON record spans lines: \(record.event)")
        let object = try? JSONSerialization.jsonObject(with: Data(written)) as? [String: Any]
        guard let object else {
            return require(false, "not a JSON object: \(String(decoding: written, as: UTF8.self))")
        }
        require(object["v"] as? Int == 1 && object["type"] is String, "no v or type: \(object)")
        switch record.event {
        case .notification(let line, _):
            requireLossless(object, "line", [line])
        case .exchanged(let exchange):
            if case .reply(let lines, let finalResult, _, _) = exchange.outcome {
                requireLossless(object, "lines", lines)
                if let finalResult { requireLossless(object, "final", [finalResult]) }
            }
        case .partialReply(_, let lines), .lateReply(_, let lines, _):
            requireLossless(object, "lines", lines)
        default:
            break
        }
    }

    /// The bytes of `lines` are recovered from field `key` (a string or an array of
    /// strings) or from `key_hex`.
    private static func requireLossless(_ object: [String: Any], _ key: String, _ lines: [ViewLine]) {
        let texts = (object[key + "_hex"] ?? object[key]).map { ($0 as? [String]) ?? [$0 as? String ?? ""] } ?? []
        let isHex = object[key + "_hex"] != nil
        let recovered = texts.map { isHex ? hexBytes($0) : Array($0.utf8) }
        require(recovered == lines.map(\.bytes), "\(key) not lossless: \(object)")
    }

    private static func hexBytes(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map {
            UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) ?? 0
        }
    }
}

enum TextCheck {
    static func check(_ written: [UInt8], record: ViewRecord, isShown: Bool) {
        let raw = written.filter { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }
        require(raw.isEmpty, "raw control bytes \(raw) in text for \(record.event)")
        let text = String(decoding: written, as: UTF8.self)
        require(!text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "a C1 control in text")
        // A backspace is applied in text, as a terminal shows it (OverstrikeTests); the
        // JSON check above keeps such lines exact.
        if case .notification(let line, _) = record.event, !line.bytes.contains(0x08) {
            let escaped = ByteEscaping.escaped(line.bytes)
            require(escaped.isEmpty || text.contains(escaped), "notification not shown as its escaped bytes")
            require(unescape(escaped) == line.bytes, "escaping of \(line.bytes) is not reversible")
        }
    }

    /// The bytes an escaped text stands for (`\\`, `\t`, `\r`, `\n`, `\xNN`).
    static func unescape(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = rest.popFirst() else {
                bytes.append(byte)
                continue
            }
            switch next {
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "x"):
                bytes.append(UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) ?? 0)
                rest = rest.dropFirst(2)
            default: bytes.append(next)
            }
        }
        return bytes
    }
}
