import TetherPresenter

extension JSONView: RunView {
    /// Writes a run record as one JSON object: `check`, `emit`, `script_error`,
    /// `dry_run` or `summary`, with `v` and `time` (fields in `docs/SCRIPTING.md`).
    public func render(_ record: RunRecord) {
        var object = Self.fields(for: record.event)
        object["v"] = .int(Self.schemaVersion)
        object["time"] = .string(Self.timestamp(record.time))
        write(object)
    }

    static func fields(for event: RunEvent) -> [String: JSONValue] {
        switch event {
        case .checked(let result):
            var object: [String: JSONValue] = [
                "type": "check", "status": .string(result.status.rawValue),
                "description": .string(result.description),
            ]
            object.merge(fields(for: result.location)) { $1 }
            if let device = result.device { object["device"] = .string(device) }
            if let expected = result.expected { object["expected"] = .string(expected) }
            if let actual = result.actual { object["actual"] = .array(actual.map(JSONValue.string)) }
            if let detail = result.detail { object["detail"] = .string(detail) }
            return object
        case .emitted(let value, let location):
            var object: [String: JSONValue] = ["type": "emit", "data": value]
            if let location { object.merge(fields(for: location)) { $1 } }
            return object
        case .scriptFailed(let problem):
            var object: [String: JSONValue] = ["type": "script_error", "message": .string(problem.message)]
            if let location = problem.location { object.merge(fields(for: location)) { $1 } }
            return object
        case .checkedOnly(let dryRun):
            var object: [String: JSONValue] = [
                "type": "dry_run", "script": .string(dryRun.script), "devices": .int(dryRun.devices),
            ]
            if let commands = dryRun.commands { object["commands"] = .int(commands) }
            return object
        case .finished(let summary):
            return [
                "type": "summary", "passed": .int(summary.passed), "failed": .int(summary.failed),
                "timed_out": .int(summary.timedOut), "not_run": .int(summary.notRun),
                "unhandled": .int(summary.unhandled), "duration_ms": .int(Int(summary.duration.milliseconds)),
                "outcome": .string(summary.outcome.rawValue),
            ]
        }
    }

    private static func fields(for location: SourceLocation) -> [String: JSONValue] {
        var object: [String: JSONValue] = ["file": .string(location.file)]
        if let line = location.line { object["line"] = .int(line) }
        return object
    }
}
