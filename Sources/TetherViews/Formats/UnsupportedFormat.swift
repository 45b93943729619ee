import TetherLibC

/// A format asked to show a kind of output it has no view for, e.g. `tap` for a
/// device's events.
public struct UnsupportedFormat: Error, Equatable, Sendable, CustomStringConvertible {
    /// The format's name.
    public var format: String
    /// What it was asked to show (``ViewKind/noun``).
    public var kind: String
    /// The formats that can show it.
    public var supported: [String]

    /// `The format 'tap' cannot show a device's events; please provide one of 'text', 'json'.`
    public var description: String {
        "The format \(Quoted(format)) cannot show \(kind); please provide one of "
            + supported.map { "'\($0)'" }.joined(separator: ", ") + "."
    }
}
