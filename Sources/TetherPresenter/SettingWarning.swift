/// A serial setting the port does not have as asked: what a `warning` record about
/// settings carries (docs/JSON.md, docs/HARDWARE.md "Settings as the port has them").
public struct SettingWarning: Sendable, Equatable, CustomStringConvertible {
    /// The port as the user named it.
    public var port: String
    /// The setting: `baud rate`, `data bits`, `parity`, `stop bits` or `flow control`.
    public var setting: String
    /// The value asked for, e.g. `odd`.
    public var requested: String
    /// The value the port has, e.g. `none`.
    public var actual: String

    /// Creates a warning.
    public init(port: String, setting: String, requested: String, actual: String) {
        self.port = port
        self.setting = setting
        self.requested = requested
        self.actual = actual
    }

    /// One line, e.g. `/dev/pts/3: parity odd was asked for, the port has none`.
    public var description: String {
        "\(port): \(setting) \(requested) was asked for, the port has \(actual)"
    }
}
