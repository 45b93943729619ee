import TetherPresenter

extension TextView: RunView {
    /// Shows a run record: expectations, emitted values and the summary on standard
    /// output, script errors and the dry run's verdict on standard error.
    ///
    /// ```
    /// PASS    queries.txt:1  *IDN? =~ ^TETHER
    /// FAIL    queries.txt:2  SETP? == 25.0  (got 22.0)
    /// TIMEOUT queries.txt:3  *OPC?  (no reply within 500 ms)
    /// EMIT    sweep.lua:9  setpoint=20 temp=19.85
    /// summary: 1 passed, 1 failed, 1 timed out, 0 not run  (1.52 s)  TIMEOUT
    /// ```
    public func render(_ record: RunRecord) {
        pendingLine.leave(on: output)  // a prompt stays above its check
        let stamp = timestamps.map { style.dim($0.stamp(record.time)) + " " } ?? ""
        switch record.event {
        case .checked(let result):
            output.write(stamp + describe(result) + "\n")
        case .emitted(let value, let location):
            let place = location.map { style.dim(Self.plain($0.description)) + "  " } ?? ""
            output.write(stamp + "EMIT    " + place + Self.show(value, topLevel: true) + "\n")
        case .scriptFailed(let problem):
            diagnostics.write("Error: \(Self.plain(problem.message))\n")
        case .checkedOnly(let dryRun):
            let what = dryRun.commands.map { "\($0) command\($0 == 1 ? "" : "s")" } ?? "Lua syntax and device names"
            let devices = "\(dryRun.devices) device\(dryRun.devices == 1 ? "" : "s")"
            diagnostics.write("\(Self.plain(dryRun.script)): ok (\(what); \(devices), none opened)\n")
        case .finished(let summary):
            output.write(stamp + describe(summary) + "\n")
        }
    }

    private func describe(_ result: CheckResult) -> String {
        let word: String =
            switch result.status {
            case .passed: style.success("PASS   ")
            case .failed: style.error("FAIL   ")
            case .timedOut: style.error("TIMEOUT")
            case .notRun: style.warning("NOT RUN")
            }
        let device = result.device.map { style.dim("[\(Self.plain($0))]") + " " } ?? ""
        var text =
            "\(word) \(style.dim(Self.plain(result.location.description)))  \(device)\(Self.plain(result.description))"
        if result.status != .passed {
            var notes: [String] = []
            if let actual = result.actual { notes.append("got " + actual.map(Self.escaped).joined(separator: " | ")) }
            if let detail = result.detail { notes.append(Self.escaped(detail)) }
            if !notes.isEmpty { text += "  " + style.dim("(" + notes.joined(separator: "; ") + ")") }
        }
        return text
    }

    private func describe(_ summary: RunSummary) -> String {
        var counts =
            "\(summary.passed) passed, \(summary.failed) failed, \(summary.timedOut) timed out, \(summary.notRun) not run"
        if summary.unhandled > 0 { counts += ", \(summary.unhandled) unhandled" }
        let hundredths = (summary.duration.milliseconds + 5) / 10
        let seconds = "\(hundredths / 100).\(Self.padded(Int(hundredths % 100), 2)) s"
        let outcome = String(summary.outcome.rawValue.uppercased().map { $0 == "_" ? " " : $0 })
        let shown = summary.outcome == .passed ? style.success(outcome) : style.error(outcome)
        return "summary: \(counts)  \(style.dim("(\(seconds))"))  \(shown)"
    }

    /// `key=value` pairs for an object at the top level, JSON-like text inside.
    private static func show(_ value: JSONValue, topLevel: Bool = false) -> String {
        switch value {
        case .string(let text):
            let plain = !text.isEmpty && !text.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" })
            if topLevel || plain { return ByteEscaping.escaped(Array(text.utf8)) }
            let escaped = ByteEscaping.escaped(Array(text.utf8)).map { $0 == "\"" ? "\\\"" : String($0) }.joined()
            return "\"" + escaped + "\""
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return String(flag)
        case .null: return "nil"
        case .array(let items): return "[" + items.map { show($0) }.joined(separator: ", ") + "]"
        case .object(let fields):
            let pairs = fields.sorted { $0.key < $1.key }.map { "\(plain($0.key))=\(show($0.value))" }
            return topLevel ? pairs.joined(separator: " ") : "{" + pairs.joined(separator: ", ") + "}"
        }
    }
}
