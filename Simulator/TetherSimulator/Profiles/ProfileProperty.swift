import Foundation

/// One property of a profiled device: a typed value with its unit, range, power-on value,
/// format, and optionally drift and noise.
///
/// JSON: `{"name": "setpoint", "type": "number", "unit": "°C", "min": 5, "max": 35,
/// "initial": 22, "format": "%.1f"}`; see docs/PROFILES.md for every field.
struct ProfileProperty: Sendable {
    /// The property's type.
    enum Kind: String, CaseIterable, Sendable {
        case number, int, bool, string, `enum`
    }

    /// A threshold or drift target: a fixed number or another property's value.
    enum Reference: Equatable, Sendable {
        case value(Double)
        case property(String)
    }

    /// How a number property changes with time (all rates per second).
    struct Drift: Equatable, Sendable {
        /// Approach this exponentially …
        var toward: Reference?
        /// … with this time constant, s (63 % of the way after one time constant).
        var timeConstant: Double
        /// A constant rate of change, unit/s.
        var rate: Double
        /// A random walk: a uniform step in ±wander per second (at most one second's
        /// worth per update).
        var wander: Double
    }

    /// Why a value given by a command was refused.
    enum Rejection: Error {
        /// Not of the property's type (the profile's `invalidValue` error).
        case invalid
        /// Of the right type but outside min…max (the profile's `outOfRange` error).
        case outOfRange
    }

    let name: String
    let kind: Kind
    /// Free text, e.g. `°C`: for people, and for tether's dashboard (``DeviceProfile/readingUnits``).
    let unit: String?
    let minimum: Double?
    let maximum: Double?
    /// Values accepted outside min…max (e.g. `0` = off).
    let allowed: [Double]
    let initial: PropertyValue
    /// printf format for number and int properties.
    let format: String
    /// `enum`: the accepted values, as shown.
    let values: [String]
    /// `bool`: the text for false and for true.
    let boolText: (off: String, on: String)
    let drift: Drift?
    /// Uniform measurement noise, ± this much, added to each reading.
    let noise: Double

    static let keys = [
        "name", "type", "unit", "min", "max", "allowed", "initial", "format", "values", "text", "drift", "noise",
    ]

    /// Reads and checks one entry of `properties`.
    init(_ reader: ProfileReader) throws(ProfileError) {
        let object = try reader.object(keys: Self.keys)
        name = try object.required("name", "a name made of letters, digits and '_'").string()
        if name.wholeMatch(of: #/[A-Za-z_][A-Za-z0-9_]*/#) == nil {
            throw object["name"]!.error(
                "'\(name)' is not a name; expected letters, digits and '_', not starting with a digit")
        }
        let typeReader = try object.required("type", "one of number, int, bool, string, enum")
        guard let kind = Kind(rawValue: try typeReader.string()) else {
            throw typeReader.error(
                "'\(try typeReader.string())' is not a type; expected one of number, int, bool, string, enum")
        }
        self.kind = kind
        unit = try object["unit"]?.string()
        let isNumeric = kind == .number || kind == .int
        for key in ["min", "max", "allowed", "format", "drift", "noise"] where !isNumeric && object[key] != nil {
            throw object[key]!.error(
                "'\(key)' applies only to number and int properties (this one is \(kind.rawValue))")
        }
        minimum = try object["min"].map { reader throws(ProfileError) in
            kind == .int ? Double(try reader.integer()) : try reader.number()
        }
        maximum = try object["max"].map { reader throws(ProfileError) in
            kind == .int ? Double(try reader.integer()) : try reader.number()
        }
        if let minimum, let maximum, minimum > maximum {
            throw object["min"]!.error("min \(minimum) is greater than max \(maximum); expected min ≤ max")
        }
        var allowed: [Double] = []
        for element in try object["allowed"]?.array() ?? [] { allowed.append(try element.number()) }
        self.allowed = allowed
        if kind == .enum {
            let valuesReader = try object.required("values", "the enum's values, e.g. [\"OFF\", \"ON\"]")
            values = try valuesReader.lines()
            if values.isEmpty { throw valuesReader.error("expected at least one value") }
        } else if let extra = object["values"] {
            throw extra.error("'values' applies only to enum properties (this one is \(kind.rawValue))")
        } else {
            values = []
        }
        if let textReader = object["text"] {
            guard kind == .bool else {
                throw textReader.error("'text' applies only to bool properties (this one is \(kind.rawValue))")
            }
            let texts = try textReader.lines()
            guard texts.count == 2 else {
                throw textReader.error("expected two strings: the text for false, then for true")
            }
            boolText = (texts[0], texts[1])
        } else {
            boolText = ("0", "1")
        }
        if let formatReader = object["format"] {
            format = try formatReader.string()
            guard ReplyTemplate.isValidFormat(format) else {
                throw formatReader.error("'\(format)' is not a number format; expected e.g. %.2f, %d, %.3E")
            }
        } else {
            format = kind == .int ? "%d" : "%g"
        }
        noise = try object["noise"]?.number() ?? 0
        if let driftReader = object["drift"] {
            guard kind == .number else { throw driftReader.error("'drift' applies only to number properties") }
            drift = try Self.drift(driftReader)
        } else {
            drift = nil
        }
        if noise != 0, kind != .number { throw object["noise"]!.error("'noise' applies only to number properties") }
        let initialReader = try object.required("initial", "the power-on value")
        let initial: PropertyValue
        switch (kind, initialReader.value) {
        case (.number, .number(let value)): initial = .number(value)
        case (.int, .number): initial = .int(try initialReader.integer())
        case (.bool, .bool(let value)): initial = .bool(value)
        case (.string, .string(let value)): initial = .text(value)
        case (.enum, .string(let value)):
            guard values.contains(value) else {
                throw initialReader.error("'\(value)' is not one of the values \(values)")
            }
            initial = .text(value)
        default:
            let expected =
                [Kind.number: "a number", .int: "a whole number", .bool: "true or false"][kind] ?? "a string"
            throw initialReader.expected(expected)
        }
        self.initial = initial
        if isNumeric, let value = initial.number, !accepts(value) {
            throw initialReader.error("the initial value \(value) is outside min…max")
        }
        if let value = initial.number, !canShow(value) {
            throw initialReader.error(
                "the initial value \(value) cannot be shown with '\(format)'; expected a whole number within ±9.2e18")
        }
    }

    /// Parses a value sent by a command.
    ///
    /// number: a finite decimal; int: a whole number; bool: `1 0 ON OFF TRUE FALSE` or the
    /// property's texts (any case); enum: one of the values (any case); string: anything.
    func parse(_ text: String) throws(Rejection) -> PropertyValue {
        switch kind {
        case .number:
            guard let value = Double(text), value.isFinite else { throw .invalid }
            guard accepts(value), canShow(value) else { throw .outOfRange }
            return .number(value)
        case .int:
            guard let value = Int(text) else { throw .invalid }
            guard accepts(Double(value)) else { throw .outOfRange }
            return .int(value)
        case .bool:
            let lowered = text.lowercased()
            if ["1", "on", "true", boolText.on.lowercased()].contains(lowered) { return .bool(true) }
            if ["0", "off", "false", boolText.off.lowercased()].contains(lowered) { return .bool(false) }
            throw .invalid
        case .enum:
            guard let value = values.first(where: { $0.caseInsensitiveCompare(text) == .orderedSame }) else {
                throw .invalid
            }
            return .text(value)
        case .string:
            return .text(text)
        }
    }

    /// Whether a number lies in min…max or is one of ``allowed``.
    func accepts(_ value: Double) -> Bool {
        allowed.contains(value) || ((minimum.map { value >= $0 } ?? true) && (maximum.map { value <= $0 } ?? true))
    }

    /// Whether the property's own format can show `value`: `%d` holds only numbers that
    /// round to a whole number within ±2⁶³ (a larger value is refused as out of range).
    func canShow(_ value: Double) -> Bool {
        !format.hasSuffix("d") || PropertyValue.wholeNumber(value) != nil
    }

    /// A number kept within min…max, and within ±2⁶³ for a `%d` format (for drift and
    /// noise).
    func clamp(_ value: Double) -> Double {
        let limit = format.hasSuffix("d") ? 0x1p63.nextDown : .infinity
        return min(maximum ?? limit, limit, max(minimum ?? -limit, -limit, value))
    }

    /// The value as the device shows it; `format` overrides the property's own for numbers.
    func text(_ value: PropertyValue, format: String? = nil) -> String {
        switch value {
        case .number(let number): PropertyValue.format(number, format ?? self.format)
        case .int(let number): PropertyValue.format(number, format ?? self.format)
        case .bool(let flag): flag ? boolText.on : boolText.off
        case .text(let text): text
        }
    }

    private static func drift(_ reader: ProfileReader) throws(ProfileError) -> Drift {
        let object = try reader.object(keys: ["toward", "timeConstant", "rate", "wander"])
        var toward: Reference?
        if let target = object["toward"] {
            switch target.value {
            case .number(let value): toward = .value(value)
            case .string(let name): toward = .property(name)
            default: throw target.expected("a number or a property name")
            }
        }
        let timeConstant = try object["timeConstant"]?.number()
        if toward != nil, (timeConstant ?? 0) <= 0 {
            throw object.reader.error("'toward' needs 'timeConstant', a positive number of seconds")
        }
        let drift = Drift(
            toward: toward, timeConstant: timeConstant ?? 1, rate: try object["rate"]?.number() ?? 0,
            wander: try object["wander"]?.number() ?? 0)
        if drift.toward == nil, drift.rate == 0, drift.wander == 0 {
            throw reader.error("expected at least one of 'toward' (with 'timeConstant'), 'rate', 'wander'")
        }
        return drift
    }
}
