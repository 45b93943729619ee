import FoundationEssentials
import TetherLibC
import TetherPresenter

/// The live dashboard's screen, as lines: a pure rendering of a ``ViewState`` at a
/// moment (`now`, for ages and downtime) into a terminal of a given size.
///
/// ```
/// tether · sim (/dev/pts/3)                                         12:01:02
/// device      TETHER ENV-1 · serial SIM0001 · firmware 1.0 (from the profile)
/// connection  connected · 115200 8N1 · for 2 min 3 s
///
/// READING  VALUE  UNIT  MIN    MAX    MEAN    N   HISTORY          AGE
/// temp     22.87  °C    21.50  22.91  22.304  11  ▁▂▃▄▅▆▇█▇▆▅       0.4 s
/// ```
/// Then the last alerts, the recent exchanges and the counters. When the terminal is
/// too short, the oldest exchanges go first, then the oldest alerts, then readings;
/// every line is cut to the width. Device text is shown escaped (``ByteEscaping``).
struct Dashboard {
    let state: ViewState
    let now: Date

    /// The screen: at most `height` lines of at most `width` characters.
    func lines(width: Int, height: Int) -> [ScreenLine] {
        let none = [ScreenLine([("none", .dim)])]
        let alerts = state.alerts.isEmpty ? none : state.alerts.map(alertLine)
        let exchanges = state.recentExchanges.isEmpty ? none : state.recentExchanges.map(exchangeLine)
        let counts = countsLines(width: width)
        var screen = [title(width: width), identityLine, connectionLine, ""] + readingLines(width: width)
        // What is left after the fixed lines goes to the alerts and exchanges, half each
        // when both need more; each shows its newest.
        let available = max(height - screen.count - 4 - counts.count, 0)
        let exchangeShare = min(exchanges.count, available - min(alerts.count, available / 2))
        let alertShare = min(alerts.count, available - exchangeShare)
        screen += ["", ScreenLine([("ALERTS", .heading)])] + alerts.suffix(alertShare)
        screen += ["", ScreenLine([("EXCHANGES", .heading)])] + exchanges.suffix(exchangeShare)
        screen = Array(screen.prefix(max(height - counts.count, 0))) + counts
        return screen.prefix(max(height, 0)).map { $0.truncated(to: width) }
    }

    private func title(width: Int) -> ScreenLine {
        var name = "tether · " + state.port
        if let device = state.device { name += " [\(device)]" }
        let clock = String(TextView.timestamp(now).prefix(8))
        let gap = max(width - name.count - clock.count, 2)
        return ScreenLine([(name, .heading), (String(repeating: " ", count: gap), .plain), (clock, .dim)])
    }

    private var identityLine: ScreenLine {
        var line = ScreenLine([(Self.label("device"), .dim)])
        guard let identity = state.identity else {
            line.append("unknown (no *IDN? reply seen)", .dim)
            return line
        }
        let name = [identity.manufacturer, identity.model].compactMap { $0 }.joined(separator: " ")
        var parts = [name.isEmpty ? identity.raw : name]
        if let serial = identity.serialNumber { parts.append("serial \(serial)") }
        if let firmware = identity.firmware { parts.append("firmware \(firmware)") }
        line.append(escaped(parts.joined(separator: " · ")))
        line.append(identity.source == .reply ? " (from *IDN?)" : " (from the profile)", .dim)
        return line
    }

    private var connectionLine: ScreenLine {
        var line = ScreenLine([(Self.label("connection"), .dim)])
        let settings = state.settings.map { " · " + $0 } ?? ""
        switch state.connection {
        case .connecting:
            line.append("connecting", .caution)
        case .connected(let since):
            line.append("connected", .good)
            line.append(settings + " · for " + Self.duration(now.timeIntervalSince(since)))
        case .reconnecting(let reason, let since):
            line.append("reconnecting", .caution)
            line.append(" · down " + Self.duration(now.timeIntervalSince(since)) + settings + " · " + escaped(reason))
        case .disconnected(let reason, let since):
            line.append("disconnected", .bad)
            line.append(" · " + Self.duration(now.timeIntervalSince(since)) + " ago · " + escaped(reason))
        }
        return line
    }

    private func readingLines(width: Int) -> [ScreenLine] {
        guard !state.readings.isEmpty else {
            return [ScreenLine([("READINGS", .heading)]), ScreenLine([("none yet", .dim)])]
        }
        let rows = state.readings.map(ReadingRow.init)
        let headings = ["READING", "VALUE", "UNIT", "MIN", "MAX", "MEAN", "N"]
        var widths = headings.map(\.count)
        for row in rows {
            for (index, cell) in row.cells.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        let ageWidth = 7
        let fixed = widths.reduce(0, +) + 2 * widths.count + 2 + ageWidth
        let historyWidth = min(max(width - fixed, 8), ReadingSeries.maximumHistory)
        func pad(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(width - text.count, 0))
        }
        var header = ScreenLine()
        for (heading, width) in zip(headings, widths) { header.append(pad(heading, width) + "  ", .heading) }
        header.append(pad("HISTORY", historyWidth) + "  ", .heading)
        header.append("AGE", .heading)
        return [header]
            + rows.map { row in
                var line = ScreenLine()
                for (index, (cell, width)) in zip(row.cells, widths).enumerated() {
                    line.append(pad(cell, width) + "  ", index == 1 ? .accent : .plain)
                }
                line.append(pad(Sparkline.text(row.series.history, width: historyWidth), historyWidth) + "  ", .good)
                line.append(Self.duration(now.timeIntervalSince(row.series.latest.time)), .dim)
                return line
            }
    }

    private func alertLine(_ alert: Alert) -> ScreenLine {
        let (kind, style): (String, ScreenLine.Style) =
            switch alert.kind {
            case .alarm: ("alarm  ", .bad)
            case .errorReply: ("error  ", .bad)
            case .warning: ("warning", .caution)
            case .invalidLine: ("invalid", .bad)
            case .lineEvent: ("line   ", .bad)
            }
        var line = ScreenLine([(Self.clock(alert.time) + " ", .dim), (kind + " ", style)])
        if let command = alert.command { line.append(escaped(command) + " → ") }
        line.append(ByteEscaping.escaped(alert.line.bytes))
        return line
    }

    private func exchangeLine(_ exchange: Exchange) -> ScreenLine {
        var line = ScreenLine([(Self.clock(exchange.time) + " ", .dim), (escaped(exchange.command) + " ", .plain)])
        switch exchange.outcome {
        case .reply(let lines, let finalResult, let isError, let roundTrip):
            let shown = (lines + [finalResult].compactMap { $0 }).map { ByteEscaping.escaped($0.bytes) }
            let meaning = exchange.errorDescription.map { " (\($0))" } ?? ""
            line.append(isError ? "✗ " : "→ ", isError ? .bad : .plain)
            line.append(
                shown.isEmpty ? "(no reply)" : shown.joined(separator: " | ") + meaning, isError ? .bad : .plain)
            line.append("  \(roundTrip.milliseconds) ms", .dim)
            if exchange.isInDoubt { line.append("  [in doubt]", .bad) }
        case .timedOut(let timeout):
            line.append("✗ no reply within \(timeout.milliseconds) ms", .bad)
        case .failed(let reason):
            line.append("✗ " + escaped(reason), .bad)
        }
        return line
    }

    /// The counters, as many to a line as fit in `width`.
    private func countsLines(width: Int) -> [ScreenLine] {
        let counts = state.counts
        let parts =
            [
                "notifications \(counts.notifications)", "replies \(counts.replies)",
                "error replies \(counts.errorReplies)", "timeouts \(counts.timeouts)", "failures \(counts.failures)",
                "late replies \(counts.lateReplies)", "missed \(counts.missed)", "reconnects \(counts.reconnects)",
            ] + (counts.invalidLines > 0 ? ["invalid lines \(counts.invalidLines)"] : [])
            + (counts.dataBytes > 0 ? ["data bytes \(counts.dataBytes)"] : [])
            + (counts.breaks > 0 ? ["breaks \(counts.breaks)"] : [])
            + (counts.lineErrors > 0 ? ["line errors \(counts.lineErrors)"] : [])
            + (counts.modemLineChanges > 0 ? ["modem line changes \(counts.modemLineChanges)"] : [])
            + LogLevel.allCases.compactMap { level in counts.levels[level].map { "\(level.name) lines \($0)" } }
        var lines: [String] = []
        for part in parts {
            if let last = lines.last, last.count + 3 + part.count <= width {
                lines[lines.count - 1] = last + " · " + part
            } else {
                lines.append(part)
            }
        }
        return lines.map { ScreenLine([($0, .dim)]) }
    }

    private func escaped(_ text: String) -> String { ByteEscaping.escaped(Array(text.utf8)) }

    private static func label(_ text: String) -> String { text + String(repeating: " ", count: 12 - text.count) }

    private static func clock(_ time: Date) -> String { String(TextView.timestamp(time).prefix(8)) }

    /// A duration for people: `0.4 s` under 10 s, `12 s`, `3 min 5 s`, `2 h 10 min`.
    static func duration(_ seconds: TimeInterval) -> String {
        let seconds = max(seconds, 0)
        if seconds < 10 { return CFormat.string("%.1f s", seconds) }
        let whole = Int(seconds)
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole / 60 % 60) min"
    }
}
