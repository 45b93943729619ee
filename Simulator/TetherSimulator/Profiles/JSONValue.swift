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

    /// Parses a JSON document.
    ///
    /// - Throws: ``ProfileError`` naming `file` and, when Foundation says where, the line
    ///   and column of the syntax error.
    static func parse(_ data: Data, file: String) throws(ProfileError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw syntaxError(in: data, file: file)
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

    /// `JSONSerialization` reports the character offset of a syntax error
    /// ("… around character 20."); turn it into a line and column.
    private static func syntaxError(in data: Data, file: String) -> ProfileError {
        var detail = "the data is not valid JSON"
        var field = ""
        do {
            _ = try JSONSerialization.jsonObject(with: data)
        } catch {
            let description =
                (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            detail = "not valid JSON: \(description)"
            if let match = description.firstMatch(of: #/character (\d+)/#), let offset = Int(match.output.1) {
                let prefix = data.prefix(offset)
                let line = prefix.count(where: { $0 == UInt8(ascii: "\n") }) + 1
                let column = offset - (prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
                field = "line \(line), column \(column)"
            }
        }
        return ProfileError(file: file, field: field, message: detail)
    }
}
