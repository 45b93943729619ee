import TetherPresenter

extension JSONView {
    /// A `line_event` record's fields (docs/JSON.md): `event` (`break`,
    /// `framing_error`, `parity_error`, `framing_or_parity_error`, `overrun`,
    /// `modem_lines`), `byte_hex` for an errored character the port gave, and for
    /// `modem_lines` the inputs `cts`, `dsr`, `dcd`, `ri` (bools) and `changed` (their
    /// names).
    static func lineEventFields(_ condition: LineCondition) -> [String: JSONValue] {
        var object: [String: JSONValue] = ["type": "line_event", "event": .string(condition.kind.rawValue)]
        if let byte = condition.byte { object["byte_hex"] = .string(ByteEscaping.hex([byte], separator: "")) }
        if condition.kind == .modemLines {
            for line in LineCondition.inputs { object[line.rawValue] = .bool(condition.asserted.contains(line)) }
            object["changed"] = .array(condition.changed.map { .string($0.rawValue) })
        }
        return object
    }
}
