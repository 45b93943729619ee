import FoundationEssentials
import Glibc
import TetherLibC
import TetherPresenter

/// The view for people: replies and notifications on standard output, one per line,
/// status and problems on standard error.
///
/// ```
/// *IDN? → TETHER,ENV-1,SIM0001,1.0  (3 ms)
/// SETP 99 ✗ ERR -222,"Data out of range"  (2 ms)
/// !READING temp=22.87 hum=41.3
/// ```
/// Bytes that are not printable are escaped (``ByteEscaping``). Colour is used only
/// when the output is a terminal and `NO_COLOR` is not set (no-color.org).
///
/// Received text is shown as a terminal leaves it: a backspace goes back, and what
/// follows overwrites (`Overstrike`; `--hex` shows the bytes).
/// Pending text (a line still arriving: `Erasing flash: ...`, a prompt) is drawn in
/// place on a terminal and completed in place when its line ends; to a pipe or a file
/// it is written as it comes and its line finished when the rest arrives, so each line
/// is there once (`PendingTextLine`).
public struct TextView: DeviceView {
    let output: BatchingSink
    let diagnostics: any OutputSink
    let timestamps: Timestamper?
    let showsHex: Bool
    /// `--quiet`: the informational lines (connected, waiting, reconnecting, the
    /// settling note) are left out; problems and warnings stay.
    let isQuiet: Bool
    let style: TextStyle
    let pendingLine = PendingTextLine()

    /// Creates a text view.
    ///
    /// - Parameters:
    ///   - output: where replies and notifications go (standard output).
    ///   - diagnostics: where connection status and warnings go (standard error).
    ///   - timestamps: prefix each line with its time in this timestamper's style
    ///     (`--timestamps`, `--timestamp-format`); `nil` for none.
    ///   - showsHex: show received lines as hex pairs (`54 45 0d`) instead of text.
    ///   - isQuiet: leave out the informational lines on `diagnostics` (`--quiet`).
    ///   - environment: read for `NO_COLOR`.
    ///   - colour: when the text is coloured (`--color`; by default on a terminal
    ///     without `NO_COLOR`).
    public init(
        output: any OutputSink = FileSink.standardOutput,
        diagnostics: any OutputSink = FileSink.standardError, timestamps: Timestamper? = nil,
        showsHex: Bool = false, isQuiet: Bool = false, environment: [String: String] = Environment.variables,
        colour: ColorChoice = .auto
    ) {
        self.output = BatchingSink(output)
        self.diagnostics = diagnostics
        self.timestamps = timestamps
        self.showsHex = showsHex
        self.isQuiet = isQuiet
        self.style = TextStyle(enabled: colour.usesColour(onTerminal: output.isTerminal, environment: environment))
    }

    public func render(_ record: ViewRecord, state: ViewState) {
        if case .notification(let line, _) = record.event, isPlainNotification(line, state: state) {
            return output.write { appendPlainNotification(line, to: &$0) }
        }
        let time = timestamps.map { style.dim($0.stamp(record.time)) + " " } ?? ""
        let device = state.device.map(Self.plain)
        let stamp = time + (device.map { style.dim("[\($0)]") + " " } ?? "")
        // The stamp's width on screen (without colour codes), so a reply's further
        // lines line up under its first.
        let stampWidth = (timestamps.map { $0.width + 1 } ?? 0) + (device.map { $0.count + 3 } ?? 0)
        if case .pendingText(let line) = record.event {
            let text = showsHex ? ByteEscaping.hex(line.bytes) : ByteEscaping.escaped(Overstrike.applied(line.bytes))
            if output.isTerminal {
                pendingLine.draw(text, stamp: stamp, width: stampWidth, columns: output.columns ?? 80, on: output)
            } else {
                pendingLine.append(text, stamp: stamp, on: output)
            }
            return
        }
        if output.isTerminal {
            pendingLine.clear(on: output)
        } else if case .notification(let line, _) = record.event, let rest = pendingLine.rest(of: show(line)) {
            // The line the pending text began.
            output.write(style.notification(rest, level: line.level) + "\n" + symbols(of: line))
            return
        } else {
            pendingLine.leave(on: output)
        }
        switch record.event {
        case .waiting, .connected, .settling, .reconnecting, .reconnected:
            if !isQuiet { inform(record, state: state, time: time) }
        case .sent, .received, .held:
            break
        case .exchanged(let exchange):
            output.write(stamp + describe(exchange, indent: stampWidth) + "\n")
        case .notification(let line, _):
            output.write(stamp + style.notification(show(line), level: line.level) + "\n" + symbols(of: line))
        case .partialReply(let command, let lines):
            let text = lines.map(show).joined(separator: " | ")
            output.write(stamp + style.warning("incomplete reply to \(Self.escaped(command)): ") + text + "\n")
        case .lateReply(let command, let lines, let isInDoubt):
            let text = lines.map(show).joined(separator: " | ")
            let doubt = isInDoubt ? "  " + style.error("[in doubt: may not be this command's reply]") : ""
            output.write(stamp + style.warning("late reply to \(Self.escaped(command)): ") + text + doubt + "\n")
        case .disconnected(let port, let reason):
            diagnose(time + "\(Self.who(state))disconnected: \(Self.plain(port)): \(Self.plain(reason))\n")
        case .missed(let count):
            diagnose(time + "warning: output fell behind; \(count) events were not shown\n")
        case .data(let bytes):
            output.write(stamp + style.notification("data " + Self.payloadSummary(bytes[...])) + "\n")
        case .commandMode(let line):
            output.write(stamp + style.warning("back in command mode: ") + show(line) + "\n")
        case .invalidLine(let line, let reason):
            output.write(stamp + style.warning("invalid line (\(reason)): ") + show(line) + "\n")
        case .lineControl(let control):
            // What tether did to the lines, as it was asked: informational (`--quiet`).
            if !isQuiet { diagnose(time + "\(Self.who(state))\(Self.plain(control.description))\n") }
        case .lineEvent(let condition):
            output.write(stamp + style.warning(condition.summary) + "\n")
        case .warning(let message):
            diagnose(time + "warning: \(Self.plain(message))\n")
        case .settingNotApplied(let warning):
            diagnose(time + "\(Self.who(state))warning: \(Self.plain(warning.description))\n")
        case .pendingText:
            break  // drawn above
        }
    }

    /// The lines of `line`'s crash addresses (``SymbolLines``), each with its line end.
    private func symbols(of line: ViewLine) -> String {
        SymbolLines.lines(for: line.symbols).map { style.dim($0) + "\n" }.joined()
    }

    /// Writes an informational line on the diagnostics (what `--quiet` leaves out).
    private func inform(_ record: ViewRecord, state: ViewState, time: String) {
        switch record.event {
        case .waiting(let port):
            diagnose(time + "\(Self.who(state))waiting for \(Self.plain(port)) to appear (Ctrl-C quits)\n")
        case .connected(let port, let settings):
            diagnose(time + "\(Self.who(state))connected to \(Self.plain(port)) (\(Self.plain(settings)))\n")
        case .settling(let note):
            diagnose(time + "\(Self.who(state))note: replies settle from now on: \(settlingCause(note))\n")
        case .reconnecting(let port):
            diagnose(
                time + "\(Self.who(state))reconnecting: waiting for \(Self.plain(port)) to come back (Ctrl-C quits)\n")
        case .reconnected(let port, let settings, _, let downtime):
            diagnose(
                time
                    + "\(Self.who(state))reconnected to \(Self.plain(port)) (\(Self.plain(settings))) after \(Self.seconds(downtime))\n"
            )
        default:
            break
        }
    }

    /// Ends pending text still shown with a line end, so what follows (the shell's
    /// prompt) starts a line of its own and a file ends in one.
    public func finish(_ state: ViewState) {
        pendingLine.leave(on: output)
    }

    /// Holds the batch's output and writes it in one go at its end (`BatchingSink`).
    public func renderBatch(_ render: () -> Void) { output.batch(render) }

    /// Writes `text` on the diagnostics after what the batch holds, so that the two
    /// streams keep their order where they meet (`2>&1`).
    private func diagnose(_ text: String) {
        output.flush()
        diagnostics.write(text)
    }

    /// Why replies settle (``ViewEvent/settling(_:)``), for people.
    private func settlingCause(_ note: SettlingNote) -> String {
        let shown = note.line.map { "'\(show($0))'" } ?? "a line"
        // An empty command (the line end alone) is named as `describe` names it.
        let command = note.command.flatMap { $0.isEmpty ? nil : Self.escaped($0) } ?? "(empty line)"
        let cause =
            switch note.reason {
            case .unasked: "\(shown) came unasked"
            case .begunBeforeCommand: "\(shown) began before its command was sent"
            case .repeatedReply: "\(shown) came again, to \(command)"
            case .noLateReply: "tether stopped waiting for the late reply to \(command)"
            }
        return cause + " (docs/DIALECTS.md, \"Stray lines\")"
    }

    /// `[NAME] ` for a diagnostic about one of a run's devices, else nothing.
    private static func who(_ state: ViewState) -> String {
        state.device.map { "[\(plain($0))] " } ?? ""
    }

    /// An exchange on one or more lines; further reply lines are indented by `indent`
    /// more columns than the command (the width of what precedes it).
    private func describe(_ exchange: Exchange, indent lead: Int) -> String {
        // An empty command sends just the line end (connect's empty Enter).
        let command =
            exchange.command.isEmpty
            ? "(empty line)" : ByteEscaping.escaped(exchange.commandBytes ?? Array(exchange.command.utf8))
        switch exchange.outcome {
        case .reply(let lines, let finalResult, let isError, let roundTrip):
            let shown = (lines + [finalResult].compactMap { $0 }).map(show)
            let arrow = isError ? style.error("✗") : "→"
            let indent = String(repeating: " ", count: lead + command.count + 3)
            let meaning = exchange.errorDescription.map { " (\(Self.plain($0)))" } ?? ""
            let body = shown.isEmpty ? style.dim("(no reply)") : shown.joined(separator: "\n" + indent) + meaning
            let text = isError ? style.error(body) : body
            let doubt = exchange.isInDoubt ? "  " + style.error("[in doubt: may not be this command's reply]") : ""
            return "\(command) \(arrow) \(text)  " + style.dim("(\(roundTrip.milliseconds) ms)") + doubt
        case .timedOut(let timeout):
            return "\(command) \(style.error("✗ no reply within \(timeout.milliseconds) ms"))"
        case .failed(let reason):
            return "\(command) \(style.error("✗ \(Self.plain(reason))"))"
        }
    }

    /// Device text, or a command as the user typed it, escaped as device bytes are (`\`
    /// doubled, so the bytes can be recovered).
    static func escaped(_ text: String) -> String {
        ByteEscaping.escaped(Array(text.utf8))
    }

    /// Text from the user or the system (a port path, a device name, a reason, a
    /// message) with its control bytes escaped, so nothing printed can drive the terminal.
    static func plain(_ text: String) -> String {
        ByteEscaping.escaped(Array(text.utf8), escapesBackslash: false)
    }

    /// A line as text, or with `--hex` as hex pairs with its line end (`4f 4b 0d 0a`); a
    /// payload as its length and first bytes (``payloadSummary(_:)``).
    private func show(_ line: ViewLine) -> String {
        let text: String
        if showsHex {
            text = ByteEscaping.hex(line.receivedBytes + (line.terminator?.bytes ?? []))
        } else if let range = line.payloadRange {
            let before = ByteEscaping.escaped(Array(line.bytes[..<range.lowerBound]))
            let after = ByteEscaping.escaped(Array(line.bytes[range.upperBound...]))
            text = [before, Self.payloadSummary(line.bytes[range]), after].filter { !$0.isEmpty }.joined(
                separator: " ")
        } else {
            text = ByteEscaping.escaped(Overstrike.applied(line.bytes))
        }
        switch line.ending {
        case .terminated: return text
        case .overlong: return text + style.dim(" [line cut at \(line.bytes.count) bytes]")
        case .unterminated: return text + style.dim(" [unterminated]")
        }
    }

    /// The most payload bytes shown in text: 16.
    static let shownPayloadBytes = 16

    /// A payload as its length and its first ``shownPayloadBytes`` bytes in hex, never
    /// as raw bytes: `<2000 bytes: 00 01 02 … 0f …>`, `<5 bytes: 61 62 0d 0a 63>`.
    static func payloadSummary(_ payload: ArraySlice<UInt8>) -> String {
        let unit = payload.count == 1 ? "byte" : "bytes"
        guard !payload.isEmpty else { return "<0 bytes>" }
        return "<\(payload.count) \(unit): \(ByteEscaping.hex(payload, atMost: shownPayloadBytes))>"
    }

    /// `1.2 s`, with one decimal.
    private static func seconds(_ duration: Duration) -> String {
        let tenths = (duration.milliseconds + 50) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// Local time as `HH:mm:ss.SSS`, formatted without a formatter object per record.
    public static func timestamp(_ date: Date) -> String {
        let since1970 = date.timeIntervalSince1970
        var seconds = time_t(since1970.rounded(.down))
        var local = tm()
        localtime_r(&seconds, &local)
        let milliseconds = Int((since1970 - since1970.rounded(.down)) * 1000)
        return "\(padded(Int(local.tm_hour), 2)):\(padded(Int(local.tm_min), 2)):\(padded(Int(local.tm_sec), 2))."
            + padded(milliseconds, 3)
    }

    /// `value` (0 or more) in decimal, zero-padded to `width` digits.
    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
