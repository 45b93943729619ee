import TetherLibC

/// One property of a profiled device: a typed value with its unit, range, power-on value,
/// format, and optionally drift and noise.
///
/// JSON: `{"name": "setpoint", "type": "number", "unit": "°C", "min": 5, "max": 35,
/// "initial": 22, "format": "%.1f"}`; see docs/PROFILES.md for every field.
struct ProfileProperty: Sendable, Decodable {
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

    /// The bool property `name`, shown as `0` and `1` (the `echo` a profile's `echo` makes).
    init(flag name: String, initial: Bool) {
        self.name = name
        kind = .bool
        unit = nil
        minimum = nil
        maximum = nil
        allowed = []
        self.initial = .bool(initial)
        format = "%g"
        values = []
        boolText = ("0", "1")
        drift = nil
        noise = 0
    }

    /// Reads and checks one entry of `properties`.
    init(from decoder: any Decoder) throws {
        let object = try decoder.profileObject(keys: Self.keys)
        name = try object.required(object.string("name"), "name", "a name made of letters, digits and '_'")
        if name.wholeMatch(of: #/[A-Za-z_][A-Za-z0-9_]*/#) == nil {
            throw object.error(
                "name", "\(Quoted(name)) is not a name; expected letters, digits and '_', not starting with a digit")
        }
        let type = try object.required(object.string("type"), "type", "one of number, int, bool, string, enum")
        guard let kind = Kind(rawValue: type) else {
            throw object.error("type", "\(Quoted(type)) is not a type; expected one of number, int, bool, string, enum")
        }
        self.kind = kind
        unit = try object.string("unit")
        let isNumeric = kind == .number || kind == .int
        for key in ["min", "max", "allowed", "format", "drift", "noise"]
        where !isNumeric && object.has(.init(stringValue: key)) {
            throw object.error(
                .init(stringValue: key),
                "'\(key)' applies only to number and int properties (this one is \(kind.rawValue))")
        }
        minimum = try kind == .int ? object.integer("min").map(Double.init) : object.number("min")
        maximum = try kind == .int ? object.integer("max").map(Double.init) : object.number("max")
        if let minimum, let maximum, minimum > maximum {
            throw object.error("min", "min \(minimum) is greater than max \(maximum); expected min ≤ max")
        }
        allowed = try object.array("allowed") { element in try element.decode(Double.self, expected: "a number") } ?? []
        if kind == .enum {
            values = try object.required(
                object.member("values") { try $0.lines() }, "values", "the enum's values, e.g. [\"OFF\", \"ON\"]")
            if values.isEmpty { throw object.error("values", "expected at least one value") }
        } else if object.has("values") {
            throw object.error("values", "'values' applies only to enum properties (this one is \(kind.rawValue))")
        } else {
            values = []
        }
        if let texts = try object.member(
            "text",
            { text in
                guard kind == .bool else {
                    throw text.error("'text' applies only to bool properties (this one is \(kind.rawValue))")
                }
                return try text.lines()
            })
        {
            guard texts.count == 2 else {
                throw object.error("text", "expected two strings: the text for false, then for true")
            }
            boolText = (texts[0], texts[1])
        } else {
            boolText = ("0", "1")
        }
        format = try object.string("format") ?? (kind == .int ? "%d" : "%g")
        guard ReplyTemplate.isValidFormat(format) else {
            throw object.error("format", "\(Quoted(format)) is not a number format; expected e.g. %.2f, %d, %.3E")
        }
        noise = try object.number("noise") ?? 0
        if object.has("drift"), kind != .number {
            throw object.error("drift", "'drift' applies only to number properties")
        }
        drift = try object.optional(Drift.self, "drift")
        if noise != 0, kind != .number { throw object.error("noise", "'noise' applies only to number properties") }
        guard object.has("initial") else { throw object.error("initial", "missing; expected the power-on value") }
        let initialDecoder = try object.superDecoder(forKey: "initial")
        let initial: PropertyValue
        switch kind {
        case .number: initial = .number(try initialDecoder.decode(Double.self, expected: "a number"))
        case .int: initial = .int(try initialDecoder.decode(WholeNumber.self, expected: "a whole number").value)
        case .bool: initial = .bool(try initialDecoder.decode(Bool.self, expected: "true or false"))
        case .string: initial = .text(try initialDecoder.decode(String.self, expected: "a string"))
        case .enum:
            let value = try initialDecoder.decode(String.self, expected: "a string")
            guard values.contains(value) else {
                throw initialDecoder.error("\(Quoted(value)) is not one of the values \(values)")
            }
            initial = .text(value)
        }
        self.initial = initial
        if isNumeric, let value = initial.number, !accepts(value) {
            throw initialDecoder.error("the initial value \(value) is outside min…max")
        }
        if let value = initial.number, !canShow(value) {
            throw initialDecoder.error(
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
            guard let value = values.first(where: { $0.lowercased() == text.lowercased() }) else {
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
}

extension ProfileProperty.Reference: Decodable {
    /// A number, or another property's name (checked by the profile, which knows them).
    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let number = try? value.decode(Double.self) {
            self = .value(number)
        } else if let name = try? value.decode(String.self) {
            self = .property(name)
        } else {
            throw decoder.expected("a number or a property name")
        }
    }
}

extension ProfileProperty.Drift: Decodable {
    /// Reads `{"toward": …, "timeConstant": s, "rate": unit/s, "wander": unit/s}`.
    init(from decoder: any Decoder) throws {
        let object = try decoder.profileObject(keys: ["toward", "timeConstant", "rate", "wander"])
        toward = try object.optional(ProfileProperty.Reference.self, "toward")
        let timeConstant = try object.number("timeConstant")
        if toward != nil, (timeConstant ?? 0) <= 0 {
            throw decoder.error("'toward' needs 'timeConstant', a positive number of seconds")
        }
        self.timeConstant = timeConstant ?? 1
        rate = try object.number("rate") ?? 0
        wander = try object.number("wander") ?? 0
        if toward == nil, rate == 0, wander == 0 {
            throw decoder.error("expected at least one of 'toward' (with 'timeConstant'), 'rate', 'wander'")
        }
    }
}
