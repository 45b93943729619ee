import TetherLibC

/// A format asked to show a kind of output it has no view for, e.g. `tap` for a
/// device's events.
package struct UnsupportedFormat: Error, Equatable, Sendable, CustomStringConvertible {
    /// The format's name.
    package var format: String
    /// What it was asked to show (``ViewKind/noun``).
    package var kind: String
    /// The formats that can show it.
    package var supported: [String]

    /// `The format 'tap' cannot show a device's events; please provide one of 'text', 'json'.`
    package var description: String {
        "The format \(Quoted(format)) cannot show \(kind); please provide one of "
            + supported.map { "'\($0)'" }.joined(separator: ", ") + "."
    }
}
