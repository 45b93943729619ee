/// One serial setting a port does not have as it was asked: which setting, the value
/// asked for and the value the port reports after it was configured.
///
/// Found by ``SerialConfiguration/mismatches(in:)``; values read the way the
/// command line writes them (`115200`, `8`, `odd`, `1`, `RTS/CTS`).
public struct SettingMismatch: Sendable, Equatable, CustomStringConvertible {
    /// The setting's field name: `baud rate`, `data bits`, `parity`, `stop bits` or
    /// `flow control`.
    public var setting: String
    /// The value asked for, e.g. `odd`.
    public var requested: String
    /// The value the port has, e.g. `none`; `not confirmed` when the port (an
    /// RFC 2217 server) did not say.
    public var actual: String

    /// Creates a mismatch.
    public init(setting: String, requested: String, actual: String) {
        self.setting = setting
        self.requested = requested
        self.actual = actual
    }

    /// One line, e.g. `parity odd was asked for, the port has none`.
    public var description: String {
        "\(setting) \(requested) was asked for, the port has \(actual)"
    }
}

extension SerialConfiguration {
    /// Each setting's field name and value as the command line writes it, in the order
    /// baud rate, data bits, parity, stop bits, flow control: `("parity", "odd")`.
    public var settingValues: [(setting: String, value: String)] {
        [
            ("baud rate", String(baudRate)), ("data bits", String(dataBits)), ("parity", parity.rawValue),
            ("stop bits", String(stopBits)), ("flow control", flowControl.displayName),
        ]
    }

    /// The settings of this (requested) configuration that `actual`, read back from
    /// the port, does not have, in the order of ``settingValues``; empty when the port
    /// has them all.
    public func mismatches(in actual: SerialConfiguration) -> [SettingMismatch] {
        zip(settingValues, actual.settingValues).compactMap { asked, has in
            asked.value == has.value
                ? nil : SettingMismatch(setting: asked.setting, requested: asked.value, actual: has.value)
        }
    }
}
