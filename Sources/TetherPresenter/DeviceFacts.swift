/// What is known of a device before it says anything: its identity and the units of
/// its readings, e.g. from a simulator profile (docs/PROFILES.md). The presenter shows
/// them until the device tells otherwise (a `*IDN?` reply, a unit in a value).
public struct DeviceFacts: Sendable, Equatable {
    /// An IEEE 488.2 identity string, `manufacturer,model,serial,firmware`.
    public var identity: String?
    /// The unit of each reading, by the field name in notifications, e.g.
    /// `temp` → `°C`.
    public var units: [String: String]
    /// The line end the dialect writes after each command (`nil` for none), so a view
    /// can show a command's exact end (a transcript's `> *IDN?\n`).
    public var commandTerminator: ViewLine.LineEnd?
    /// The firmware's code addresses (`--elf`): notifications in a crash format
    /// (``CrashAddressFormat``) get the ``ViewLine/symbols`` of their addresses.
    public var symbolizer: (any AddressSymbolizing)?
    /// Register fields the device's own crash reports put code addresses in, looked up
    /// beside ``CrashAddressFormat/builtIn``'s (`--crash-fields`, a device file's
    /// `crash-fields`).
    public var crashFields: [String] = []

    /// Creates the facts.
    public init(identity: String? = nil, units: [String: String] = [:], commandTerminator: ViewLine.LineEnd? = nil) {
        self.identity = identity
        self.units = units
        self.commandTerminator = commandTerminator
    }

    /// Equal facts: the same identity, units, terminator and crash fields, and both with or both
    /// without a symbolizer (which is not comparable).
    public static func == (lhs: DeviceFacts, rhs: DeviceFacts) -> Bool {
        lhs.identity == rhs.identity && lhs.units == rhs.units && lhs.commandTerminator == rhs.commandTerminator
            && lhs.crashFields == rhs.crashFields
            && (lhs.symbolizer == nil) == (rhs.symbolizer == nil)
    }
}
