import FoundationEssentials
import TetherPresenter

extension JSONView {
    /// A `state` record: a snapshot of the whole ``ViewState`` at `time`, documented
    /// field by field in `docs/JSON.md` ("The state record").
    static func stateObject(_ state: ViewState, time: Date) -> [String: JSONValue] {
        var object: [String: JSONValue] = [
            "v": .int(schemaVersion), "type": "state", "time": .string(timestamp(time)), "port": .string(state.port),
            "connection": connectionObject(state.connection),
            "settings": state.settings.map(JSONValue.string) ?? .null,
            "identity": state.identity.map(stateIdentity) ?? .null,
            "readings": .array(state.readings.map(readingObject)),
            "alerts": .array(state.alerts.map(alertObject)),
            "exchanges": .array(
                state.recentExchanges.map { exchange in
                    var fields = Self.fields(for: exchange)
                    fields["time"] = .string(timestamp(exchange.time))
                    return .object(fields)
                }),
            "counts": countsObject(state.counts),
        ]
        if let device = state.device { object["device"] = .string(device) }
        return object
    }

    private static func connectionObject(_ connection: ViewState.Connection) -> JSONValue {
        let (name, since, reason): (String, Date?, String?) =
            switch connection {
            case .connecting: ("connecting", nil, nil)
            case .connected(let since): ("connected", since, nil)
            case .disconnected(let reason, let since): ("disconnected", since, reason)
            case .reconnecting(let reason, let since): ("reconnecting", since, reason)
            }
        return .object([
            "state": .string(name), "since": since.map { .string(timestamp($0)) } ?? .null,
            "reason": reason.map(JSONValue.string) ?? .null,
        ])
    }

    private static func stateIdentity(_ identity: DeviceIdentity) -> JSONValue {
        guard case .object(var fields) = identityObject(identity) else { return .null }
        fields["raw"] = .string(identity.raw)
        fields["source"] = .string(identity.source.rawValue)
        return .object(fields)
    }

    private static func readingObject(_ series: ReadingSeries) -> JSONValue {
        let latest = series.latest
        func number(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
        return .object([
            "name": .string(latest.name), "value": .string(latest.value), "number": number(latest.number),
            "unit": latest.unit.map(JSONValue.string) ?? .null, "time": .string(timestamp(latest.time)),
            "count": .int(series.count), "min": number(series.minimum), "max": number(series.maximum),
            "mean": number(series.mean), "history": .array(series.history.map(JSONValue.double)),
        ])
    }

    private static func alertObject(_ alert: Alert) -> JSONValue {
        var object: [String: JSONValue] = [
            "time": .string(timestamp(alert.time)), "kind": .string(alert.kind.jsonName),
            "command": alert.command.map(JSONValue.string) ?? .null,
        ]
        object.merge(lineFields("line", alert.line)) { $1 }
        return .object(object)
    }

    private static func countsObject(_ counts: ViewState.Counts) -> JSONValue {
        var object: [String: JSONValue] = [
            "replies": .int(counts.replies), "error_replies": .int(counts.errorReplies),
            "timeouts": .int(counts.timeouts), "failures": .int(counts.failures),
            "notifications": .int(counts.notifications), "late_replies": .int(counts.lateReplies),
            "missed": .int(counts.missed), "reconnects": .int(counts.reconnects),
            "untracked_readings": .int(counts.untrackedReadings), "invalid_lines": .int(counts.invalidLines),
            "data_bytes": .int(counts.dataBytes), "breaks": .int(counts.breaks),
            "line_errors": .int(counts.lineErrors), "modem_line_changes": .int(counts.modemLineChanges),
        ]
        for level in LogLevel.allCases { object[level.name + "_lines"] = .int(counts.levels[level] ?? 0) }
        return .object(object)
    }
}

extension Alert.Kind {
    /// The name in JSON: `alarm`, `error_reply`, `warning`.
    fileprivate var jsonName: String {
        switch self {
        case .alarm: "alarm"
        case .errorReply: "error_reply"
        case .warning: "warning"
        case .invalidLine: "invalid_line"
        case .lineEvent: "line_event"
        }
    }
}
