/// One named device of the configuration file, as `tether list` shows it.
public struct NamedDeviceSummary: Sendable, Equatable {
    /// Whether its port is here now.
    public enum Presence: String, Sendable, Equatable {
        /// Its path exists, or one listed port has its identity (`match`).
        case present
        /// Its path does not exist, or no listed port has its identity.
        case absent
        /// A `tcp://` or `rfc2217://` port: not looked for.
        case remote
        /// The built-in simulator: started when used.
        case simulator
    }

    /// The section's name, e.g. `lab-psu`.
    public var name: String
    /// Where it is, as written: `port`'s value, or `match ID` for a `match` key.
    public var place: String
    /// Whether it is here.
    public var presence: Presence
    /// Its `description`, if any.
    public var description: String?
    /// The configuration file it comes from.
    public var file: String

    /// Creates a summary.
    public init(name: String, place: String, presence: Presence, description: String? = nil, file: String) {
        self.name = name
        self.place = place
        self.presence = presence
        self.description = description
        self.file = file
    }
}
