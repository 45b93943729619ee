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
    init(_ reader: ProfileReader, scope: TemplateScope) throws(ProfileError) {
        let object = try reader.object(keys: Self.keys)
        let properties = scope.properties
        func intProperty(_ reader: ProfileReader, _ role: String) throws(ProfileError) -> Int {
            let name = try reader.string()
            guard let index = properties.firstIndex(where: { $0.name == name }), properties[index].kind == .int else {
                throw reader.error("'\(name)' is not an int property; expected the int property \(role)")
            }
            return index
        }
        name = try object["name"]?.string()
        if let every = object["every"] {
            if case .string = every.value {
                interval = .property(try intProperty(every, "holding the interval in ms"))
            } else {
                let milliseconds = try every.integer()
                guard milliseconds > 0 else { throw every.error("expected a positive number of ms") }
                interval = .milliseconds(milliseconds)
            }
        } else {
            interval = nil
        }
        firstAfter = try object["firstAfter"]?.integer()
        if let firstAfter, firstAfter < 0 { throw object["firstAfter"]!.error("expected 0 or more ms") }
        after = try object["after"]?.string()
        if (interval == nil) == (after == nil) {
            throw reader.error("give either 'every' (a schedule) or 'after' (another notification's name)")
        }
        if let whenReader = object["when"] {
            let when = try whenReader.object(keys: ["property", "atLeast", "atMost"])
            let propertyReader = try when.required("property", "the property to watch")
            let name = try propertyReader.string()
            guard let index = properties.firstIndex(where: { $0.name == name }),
                [.number, .int].contains(properties[index].kind)
            else { throw propertyReader.error("'\(name)' is not a number or int property") }
            let (isAtLeast, thresholdReader): (Bool, ProfileReader)
            switch (when["atLeast"], when["atMost"]) {
            case (let reader?, nil): (isAtLeast, thresholdReader) = (true, reader)
            case (nil, let reader?): (isAtLeast, thresholdReader) = (false, reader)
            default: throw whenReader.error("expected exactly one of 'atLeast', 'atMost'")
            }
            let threshold: ProfileProperty.Reference
            switch thresholdReader.value {
            case .number(let value): threshold = .value(value)
            case .string(let other):
                guard scope.property(other)?.kind == .number || scope.property(other)?.kind == .int else {
                    throw thresholdReader.error("'\(other)' is not a number or int property")
                }
                threshold = .property(other)
            default: throw thresholdReader.expected("a number or a property name")
            }
            condition = Condition(property: index, isAtLeast: isAtLeast, threshold: threshold)
        } else {
            condition = nil
        }
        increment = try object["increment"].map { reader throws(ProfileError) in
            try intProperty(reader, "to count with")
        }
        let sendReader = try object.required("send", "the line or lines to send")
        send = try scope.templates(sendReader)
    }
}
