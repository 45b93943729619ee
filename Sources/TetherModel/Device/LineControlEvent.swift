/// What tether did to a port beside moving bytes, as a ``DeviceEvent``: the line
/// states it set, a sequence it ran, the settings read back after a change.
public enum LineControlEvent: Sendable, Equatable {
    /// A sequence of line states began (``Device/run(_:)``): its name (`esptool-classic`,
    /// `break 250 ms`) and its steps.
    case sequence(name: String, steps: [LineStep])
    /// DTR, RTS and break as one step of a sequence set them (`nil`: unchanged), when
    /// it was applied.
    case lines(LineStep)
    /// The serial settings the port has after a change of an open port
    /// (``Device/setBaudRate(_:)``), read back as at the open (`921600 8N1`); a
    /// `settingMismatch` follows for each setting asked that the port does not have.
    case settingsChanged(settings: String)
}
