import TetherModel

/// A device a script run talks to.
public struct ScriptDevice: Sendable {
    /// The script's name for it (`devices.NAME` in Lua); `nil` for the unnamed device
    /// given with `--port PATH` or `--sim`.
    public var name: String?
    /// The device, not yet started: the runner attaches its observer, then starts it.
    public var device: Device

    /// Describes a device of a run.
    public init(name: String?, device: Device) {
        self.name = name
        self.device = device
    }
}
