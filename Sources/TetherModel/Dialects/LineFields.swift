/// What a dialect reads in a line beyond its text: named values, or why the line is
/// invalid (``Dialect/fields(of:)``: `nmea`'s sentences and their checksum).
public enum LineFields: Sendable, Equatable {
    /// The line's values, in order: `lat` = `52.5200000` °, `sats` = `8`…
    case values([LineField])
    /// The line is damaged: a wrong checksum, a sentence cut short. `reason` says how,
    /// for people (`checksum 5A, computed 4B`).
    case invalid(reason: String)
}

/// One named value a dialect read in a line.
public struct LineField: Sendable, Equatable {
    /// The name, e.g. `lat`.
    public var name: String
    /// The value as text: a decimal number (`52.5200000`, `-0.5`) or a word (`12:35:19`).
    public var value: String
    /// The unit (`°`, `m`, `kn`, `km/h`), or `nil`.
    public var unit: String?

    /// Creates a field.
    public init(name: String, value: String, unit: String? = nil) {
        self.name = name
        self.value = value
        self.unit = unit
    }
}
