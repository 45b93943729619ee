import Foundation

/// The value of a profile property.
enum PropertyValue: Equatable, Sendable {
    /// `number` properties.
    case number(Double)
    /// `int` properties.
    case int(Int)
    /// `bool` properties.
    case bool(Bool)
    /// `string` and `enum` properties.
    case text(String)

    /// The value as a number, for drift, thresholds and number formats (`nil` for text).
    var number: Double? {
        switch self {
        case .number(let value): value
        case .int(let value): Double(value)
        case .bool(let value): value ? 1 : 0
        case .text: nil
        }
    }

    /// `value` in a validated printf number format (see ``ReplyTemplate``); `%d` rounds.
    static func format(_ value: Double, _ format: String) -> String {
        if format.hasSuffix("d") {
            let whole = value.isFinite ? Int(value.rounded()) : 0
            return String(format: String(format.dropLast()) + "ld", whole)
        }
        return String(format: format, value)
    }
}
