import TetherLibC

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
    ///
    /// A value `%d` cannot hold (not finite, or beyond ±2⁶³) is shown with `%.0f` instead:
    /// formatting never traps. Properties keep their own values within what their format
    /// shows (``ProfileProperty/canShow(_:)``), so only a template's own `{name:%d}` meets it.
    static func format(_ value: Double, _ format: String) -> String {
        guard format.hasSuffix("d") else { return CFormat.string(format, value) }
        guard let whole = wholeNumber(value) else { return CFormat.string("%.0f", value) }
        return Self.format(whole, format)
    }

    /// `value` in a validated printf number format; `%d` shows it exactly.
    static func format(_ value: Int, _ format: String) -> String {
        guard format.hasSuffix("d") else { return CFormat.string(format, Double(value)) }
        return CFormat.string(String(format.dropLast()) + "ld", value)
    }

    /// `value` rounded to a whole number, or `nil` when `Int` cannot hold it (not finite,
    /// or beyond ±2⁶³).
    static func wholeNumber(_ value: Double) -> Int? {
        Int(exactly: value.rounded())
    }
}
