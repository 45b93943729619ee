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

    /// Describes a device of a run.
    public init(name: String?, device: Device, facts: DeviceFacts = DeviceFacts()) {
        self.name = name
        self.device = device
        self.facts = facts
    }
}
