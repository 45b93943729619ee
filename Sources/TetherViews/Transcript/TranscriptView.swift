import FoundationEssentials
import Synchronization
import TetherPresenter

/// A session as a person reads it afterwards — `--log session.txt`, `--log-format
/// transcript`, `--format transcript`: one line per line that crossed the port, each
/// once, with its time, its direction and its exact line end, escaped so nothing
/// unprintable is written raw.
///
/// ```
/// 12:15:01.120 * connected to /dev/ttyUSB0 (115200 8N1)
/// 12:15:01.121 > *IDN?\n
/// 12:15:01.124 < TETHER,ENV-1,SIM0001,1.0\r\n
/// 12:15:01.300 < \r\n
/// 12:15:02.310 > TEMP?\n
/// 12:15:03.311 * no reply to TEMP? within 1000 ms
/// 12:15:03.900 [psu] * PASS checks.lua:4 volts are set
/// ```
///
/// `>` is sent, `<` received, `*` tether's own note (connection, timeouts, warnings,
/// a run's checks and summary). A line's end is written as its escape (`\r\n`, `\n`,
/// `\r`) at the end of the line; a line written without one had none (a prompt, a
/// line cut when the device hung up). A command's end is the dialect's terminator;
/// raw and immediate writes are exactly their bytes, joined into lines at their line
/// ends (typed keys and Enter: one line). Blank lines are kept. Text is
/// escaped as ``ByteEscaping`` does (`\x1b`, `\\` for a backslash), so a transcript
/// diffs cleanly between two boards. A named device's lines carry `[NAME]`.
///
/// It asks for the byte stream (``showsReceivedBytes``) and, given it, writes those
/// bytes cut into lines (`LineSplitter`) instead of the session's lines, so it holds
/// exactly what crossed the port — blank lines too, which the session drops as framing
/// (`TranscriptEndToEndTests`). Commands are written as sent, with the dialect's
/// terminator; raw writes and what was typed (`connect`'s raw mode) as their bytes.
public final class TranscriptView: RunView, ModemLineView {
    private struct State {
        var fromBytes = false
        var received: [String: LineSplitter] = [:]
        var sent: [String: LineSplitter] = [:]
    }

    private let output: any OutputSink
    private let timestamps: Timestamper
    private let state = Mutex(State())

    /// Creates a transcript written to `output`, its times stamped by `timestamps`.
    public init(output: any OutputSink, timestamps: Timestamper = Timestamper()) {
        self.output = output
        self.timestamps = timestamps
    }

    public func render(_ record: ViewRecord, state: ViewState) {
        let device = state.device
        let lines: [String] = self.state.withLock { mode in
            // Bytes the splitter still holds came before this record: a line ended by a
            // CR (no LF can join it now), and before a command line the text after the
            // last line end too (a prompt). Not before a raw write: keystrokes in raw
            // mode would cut the line being echoed into pieces.
            var before: [String] = []
            if mode.fromBytes {
                let key = device ?? ""
                let held: LineSplitter.Piece?
                switch record.event {
                case .received: held = nil
                case .sent(_, .command): held = mode.received[key]?.flush()
                default: held = mode.received[key]?.flushHeldCR()
                }
                if let held { before.append(line(held.time, device, "<", held.bytes)) }
            }
            return before + recordLines(for: record, device: device, mode: &mode)
        }
        write(lines)
    }

    private func recordLines(for record: ViewRecord, device: String?, mode: inout State) -> [String] {
        switch record.event {
        case .received(let bytes):
            mode.fromBytes = true
            return mode.received[device ?? "", default: LineSplitter()].take(bytes, at: record.time).map {
                line($0.time, device, "<", $0.bytes)
            }
        case .sent(let command, let kind) where kind != .command:
            return mode.sent[device ?? "", default: LineSplitter(holdsTrailingCR: false)].take(
                command.bytes, at: record.time
            ).map {
                line($0.time, device, ">", $0.bytes)
            }
        case .sent:
            return sessionLines(for: record, device: device)
        default:
            // From the byte stream, the session's lines would be its bytes again.
            return mode.fromBytes ? notes(for: record, device: device) : sessionLines(for: record, device: device)
        }
    }

    public func renderReceived(_ record: ViewRecord, bytes: [UInt8], state: ViewState) {
        render(record, state: state)
    }

    public var showsReceivedBytes: Bool { true }

    public func finish(_ state: ViewState) {
        let lines = self.state.withLock { mode in
            let device = state.device ?? ""
            return [(">", mode.sent[device]?.flush()), ("<", mode.received[device]?.flush())].compactMap {
                mark, piece in
                piece.map { line($0.time, state.device, mark, $0.bytes) }
            }
        }
        write(lines)
    }

    public func render(_ record: RunRecord) {
        let text: String
        switch record.event {
        case .checked(let result):
            var words = "\(Self.word(result.status)) \(result.location) \(result.description)"
            let why = TestCase.describe(expected: result.expected, actual: result.actual, detail: result.detail)
            if result.status != .passed, !why.isEmpty { words += " (\(why))" }
            write([note(record.time, result.device, words)])
            return
        case .emitted(let value, let location):
            var bytes: [UInt8] = []
            JSONWriter.append(value, to: &bytes)
            text = "EMIT " + (location.map { "\($0) " } ?? "") + String(decoding: bytes, as: UTF8.self)
        case .scriptFailed(let problem): text = "script error: " + problem.message
        case .checkedOnly(let dryRun): text = "dry run: \(dryRun.script) ok"
        case .finished(let summary):
            text =
                "summary: \(summary.passed) passed, \(summary.failed) failed, \(summary.timedOut) timed out, "
                + "\(summary.notRun) not run (\(summary.duration.milliseconds) ms) \(summary.outcome.rawValue)"
        }
        write([note(record.time, nil, text)])
    }

    public func render(modemLines status: ModemLineStatus) {
        let lines = ModemLineStatus.Line.allCases.map {
            "\($0.rawValue.uppercased())=\(status.asserted.contains($0) ? "on" : "off")"
        }
        write([note(status.time, nil, "modem lines of \(status.port): " + lines.joined(separator: " "))])
    }

    /// The lines of a record of the session (not the byte stream).
    private func sessionLines(for record: ViewRecord, device: String?) -> [String] {
        let time = record.time
        switch record.event {
        case .sent(let command, _):
            return [line(time, device, ">", command.bytes + (command.terminator?.bytes ?? []))]
        case .exchanged(let exchange):
            switch exchange.outcome {
            case .reply(let lines, let final, let isError, _):
                var shown = (lines + [final].compactMap { $0 }).map { received(time, device, $0) }
                if isError {
                    let meaning = exchange.errorDescription.map { " (\($0))" } ?? ""
                    shown.append(note(time, device, "error reply to \(exchange.command)\(meaning)"))
                }
                return shown
            default:
                return notes(for: record, device: device)
            }
        case .notification(let viewLine, _):
            return [received(time, device, viewLine)]
                + SymbolLines.lines(for: viewLine.symbols, indent: 0).map { note(time, device, $0) }
        case .partialReply(_, let lines):
            return lines.map { received(time, device, $0) }
        case .lateReply(let command, let lines, _):
            return [note(time, device, "late reply to \(command):")] + lines.map { received(time, device, $0) }
        case .invalidLine(let viewLine, let reason):
            return [received(time, device, viewLine), note(time, device, "invalid line: \(reason)")]
        case .data(let bytes):
            return [line(time, device, "<", bytes)]
        case .commandMode(let viewLine):
            return [received(time, device, viewLine), note(time, device, "back in command mode")]
        default:
            return notes(for: record, device: device)
        }
    }

    /// tether's own notes for a record: connection events, timeouts, warnings.
    private func notes(for record: ViewRecord, device: String?) -> [String] {
        let text: String
        switch record.event {
        case .waiting(let port): text = "waiting for \(port) to appear"
        case .connected(let port, let settings): text = "connected to \(port) (\(settings))"
        case .exchanged(let exchange):
            switch exchange.outcome {
            case .timedOut(let timeout): text = "no reply to \(exchange.command) within \(timeout.milliseconds) ms"
            case .failed(let reason): text = "\(exchange.command) failed: \(reason)"
            case .reply: return []
            }
        case .disconnected(let port, let reason): text = "disconnected from \(port): \(reason)"
        case .reconnecting(let port): text = "reconnecting to \(port)"
        case .reconnected(let port, let settings, let attempts, let downtime):
            text = "reconnected to \(port) (\(settings)) after \(attempts) tries, \(downtime.milliseconds) ms"
        case .missed(let count): text = "missed \(count) events"
        case .lineControl(let control): text = control.description
        case .warning(let message): text = "warning: \(message)"
        case .settingNotApplied(let warning): text = "warning: \(warning)"
        case .lineEvent(let condition): text = condition.summary
        case .sent, .received, .notification, .partialReply, .lateReply, .pendingText, .invalidLine, .data,
            .commandMode, .settling, .held:
            return []
        }
        return [note(record.time, device, text)]
    }

    private func received(_ time: Date, _ device: String?, _ viewLine: ViewLine) -> String {
        line(time, device, "<", viewLine.receivedBytes + (viewLine.terminator?.bytes ?? []))
    }

    /// `TIME [NAME] MARK TEXT`, the text's bytes escaped (line ends too).
    private func line(_ time: Date, _ device: String?, _ mark: String, _ bytes: [UInt8]) -> String {
        stamp(time, device) + mark + " " + ByteEscaping.escaped(bytes)
    }

    private func note(_ time: Date, _ device: String?, _ text: String) -> String {
        stamp(time, device) + "* " + TextView.plain(text)
    }

    private func stamp(_ time: Date, _ device: String?) -> String {
        timestamps.stamp(time) + " " + (device.map { "[\(TextView.plain($0))] " } ?? "")
    }

    private func write(_ lines: [String]) {
        if !lines.isEmpty { output.write(lines.map { $0 + "\n" }.joined()) }
    }

    private static func word(_ status: CheckResult.Status) -> String {
        switch status {
        case .passed: "PASS"
        case .failed: "FAIL"
        case .timedOut: "TIMEOUT"
        case .notRun: "NOT RUN"
        }
    }
}
