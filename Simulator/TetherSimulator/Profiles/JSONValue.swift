import Foundation

/// A JSON document as a value, so a profile can be checked field by field with the
/// path of every mistake (Foundation's `JSONDecoder` reads the text).
///
/// Numbers are `Double`; `true`/`false` are never taken for numbers.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses a strict JSON document (``StrictJSON``).
    ///
    /// - Throws: ``ProfileError`` naming `file` and, when known, the line and column of
    ///   the syntax error.
    static func parse(_ data: Data, file: String) throws(ProfileError) -> JSONValue {
        try StrictJSON.check(data, file: file)
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ProfileError(file: file, field: "", message: "not valid JSON: \(error)")
        }
    }

    /// The name of the value's kind, for messages ("a number", "an object"…).
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
