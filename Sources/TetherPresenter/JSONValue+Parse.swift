import TetherJSON

extension JSONValue {
    /// Why a JSON text that parses cannot be a ``JSONValue``.
    package struct Unrepresentable: Error, Equatable, CustomStringConvertible {
        /// The number as written, e.g. `1e999`.
        package var number: String
        package var description: String { "number \(number) is not representable" }
    }

    /// Reads one JSON text (RFC 8259) straight from its parsed tree, giving what
    /// ``init(from:)`` decodes from the same text — a whole number that `Int` holds
    /// (`3`, `3.0`, `3e2`) an `int`, any other finite number a `double` — without the
    /// `Decoder`'s trial and error per value, which made reading a long log slow
    /// (`JSONValueParseTests` compares the two).
    ///
    /// - Throws: `JSONGrammar.Mistake` for a syntax error, a `JSONNode.Refusal`, or
    ///   ``Unrepresentable`` for a number beyond `Double` (`1e999`), which
    ///   ``init(from:)`` refuses too.
    package static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try JSONValue(node: JSONNode.parse(bytes))
    }

    /// The value of a parsed tree; see ``parse(_:)``.
    ///
    /// - Throws: ``Unrepresentable`` for a number beyond `Double`.
    package init(node: JSONNode) throws(Unrepresentable) {
        switch node {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .string(let text): self = .string(text)
        case .number(let text):
            if let whole = Int(text) {
                self = .int(whole)
            } else if let number = Double(text), number.isFinite {
                self = Int(exactly: number).map(JSONValue.int) ?? .double(number)
            } else {
                throw Unrepresentable(number: text)
            }
        case .array(let items):
            var values: [JSONValue] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try JSONValue(node: item)) }
            self = .array(values)
        case .object(let members):
            var values: [String: JSONValue] = [:]
            values.reserveCapacity(members.count)
            for (name, member) in members { values[name] = try JSONValue(node: member) }
            self = .object(values)
        }
    }
}
