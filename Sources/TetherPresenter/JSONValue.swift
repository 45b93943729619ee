/// A JSON value (RFC 8259): what a script emits, what JSON records are built of, and
/// what a JSON file decodes to when its keys are not fixed (a device description).
///
/// The one JSON value type of tether: it lives here, the lowest module that the Views,
/// the scripts and the CLI all import. The simulator needs none (its profiles decode
/// into their own types). Integers and other numbers are distinct, so an integer
/// written by a script comes out as one; `true`/`false` are never numbers. A
/// non-finite `double` cannot be JSON: it is encoded as a string (`"inf"`, `"nan"`), as
/// `JSONWriter` in the Views writes it.
public enum JSONValue: Sendable, Equatable, Codable, ExpressibleByStringLiteral {
    /// A JSON string.
    case string(String)
    /// An integer, a JSON number.
    case int(Int)
    /// A floating-point number, a JSON number (a non-finite one is written as a string, above).
    case double(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// A JSON array, in order.
    case array([JSONValue])
    /// A JSON object, by member name.
    case object([String: JSONValue])
    /// JSON `null`.
    case null

    public init(stringLiteral value: String) { self = .string(value) }

    /// Decodes any JSON value; a number is an `int` when it is a whole number that
    /// `Int` holds (`3`, `3.0`), else a `double`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([JSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value) where value.isFinite: try container.encode(value)
        case .double(let value): try container.encode(String(value))
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
