import TetherModel
import TetherPresenter

/// A device a script run talks to.
public struct ScriptDevice: Sendable {
    /// The script's name for it (`devices.NAME` in Lua); `nil` for the unnamed device
    /// given with `--port PATH` or `--sim`.
    public var name: String?
    /// The device, not yet started: the runner attaches its observer, then starts it.
    public var device: Device
    /// What is known of it beforehand (a simulator profile's identity and units, the
    /// dialect's command terminator).
    public var facts: DeviceFacts
    /// Whether the device is reopened after a disconnect (it has a reopener: `run`'s
    /// `tcp://` and `rfc2217://` ports): the script then goes on, its commands failing
    /// while the device is away, instead of stopping at its next use.
    public var reconnects: Bool

    /// Describes a device of a run.
    public init(name: String?, device: Device, facts: DeviceFacts = DeviceFacts(), reconnects: Bool = false) {
        self.name = name
        self.device = device
        self.facts = facts
        self.reconnects = reconnects
    }
}
