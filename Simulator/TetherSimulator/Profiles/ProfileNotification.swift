/// An unsolicited line a profiled device sends: on a schedule, right after another
/// notification, and optionally only when a property crosses a threshold.
///
/// JSON: `{"name": "reading", "every": "rate", "send": "!READING temp={temperature}"}`
/// (`every`: ms, or an int property holding ms, 0 = off; `firstAfter`: ms after a client
/// connects, default `every`); `{"after": "reading", "when": {"property": "temperature",
/// "atLeast": "alarm"}, "send": "!ALARM …"}` (checked right after each `reading`);
/// `increment`: an int property raised by one before each send (wrapping to its min).
struct ProfileNotification: Sendable {
    /// How often: a fixed interval or an int property's value, ms.
    enum Interval: Sendable, Equatable {
        case milliseconds(Int)
        case property(Int)
    }

    /// The condition of an edge-triggered notification: it is sent when the condition
    /// becomes true (it was false at the previous check, or there was none).
    struct Condition: Sendable {
        /// The property compared (its reading, with noise).
        let property: Int
        /// `true`: value ≥ threshold; `false`: value ≤ threshold.
        let isAtLeast: Bool
        let threshold: ProfileProperty.Reference
    }

    let name: String?
    let interval: Interval?
    /// Delay from a client connecting to the first send, ms.
    let firstAfter: Int?
    let condition: Condition?
    let increment: Int?
    let send: [ReplyTemplate]

    /// The name of the notification this one follows (checked by ``DeviceProfile``).
    let after: String?

    static let keys = ["name", "every", "firstAfter", "after", "when", "increment", "send"]

    /// Reads one entry of `notifications`.
    init(from decoder: any Decoder, configuration scope: TemplateScope) throws {
        let object = try decoder.profileObject(keys: Self.keys)
        let properties = scope.properties
        func intProperty(_ key: ProfileKey, _ role: String) throws -> Int? {
            guard let name = try object.string(key) else { return nil }
            guard let index = properties.firstIndex(where: { $0.name == name }), properties[index].kind == .int else {
                throw object.error(key, "'\(name)' is not an int property; expected the int property \(role)")
            }
            return index
        }
        name = try object.string("name")
        if (try? object.decode(String.self, forKey: "every")) != nil,
            let index = try intProperty("every", "holding the interval in ms")
        {
            interval = .property(index)
        } else if let milliseconds = try object.integer("every") {
            guard milliseconds > 0 else { throw object.error("every", "expected a positive number of ms") }
            interval = .milliseconds(milliseconds)
        } else {
            interval = nil
        }
        firstAfter = try object.integer("firstAfter")
        if let firstAfter, firstAfter < 0 { throw object.error("firstAfter", "expected 0 or more ms") }
        after = try object.string("after")
        if (interval == nil) == (after == nil) {
            throw decoder.error("give either 'every' (a schedule) or 'after' (another notification's name)")
        }
        condition = try object.optional(Condition.self, "when", configuration: scope)
        increment = try intProperty("increment", "to count with")
        send = try object.required(
            object.member("send") { send in try ReplyTemplate.lines(from: send, scope: scope) }, "send",
            "the line or lines to send")
    }
}

extension ProfileNotification.Condition: DecodableInProfile {
    /// Reads `{"property": name, "atLeast" or "atMost": number or property name}`.
    init(from decoder: any Decoder, configuration scope: TemplateScope) throws {
        let object = try decoder.profileObject(keys: ["property", "atLeast", "atMost"])
        let name = try object.required(object.string("property"), "property", "the property to watch")
        guard let index = scope.properties.firstIndex(where: { $0.name == name }),
            [.number, .int].contains(scope.properties[index].kind)
        else { throw object.error("property", "'\(name)' is not a number or int property") }
        property = index
        let key: ProfileKey
        switch (object.has("atLeast"), object.has("atMost")) {
        case (true, false): (isAtLeast, key) = (true, "atLeast")
        case (false, true): (isAtLeast, key) = (false, "atMost")
        default: throw decoder.error("expected exactly one of 'atLeast', 'atMost'")
        }
        threshold = try object.decode(ProfileProperty.Reference.self, forKey: key)
        if case .property(let other) = threshold, ![.number, .int].contains(scope.property(other)?.kind) {
            throw object.error(key, "'\(other)' is not a number or int property")
        }
    }
}
