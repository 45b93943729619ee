import TetherModel
import TetherSimulator

/// The simulated devices tether can start in-process (`--sim`, `--port NAME=sim:PROFILE`):
/// each profile's device behaviour and the dialect to talk to it.
enum SimulatorProfile {
    /// The profile `--sim` and `NAME=sim` start.
    static let defaultName = "env"

    /// Every profile name, for messages.
    static let names = ["env"]

    /// The device of the profile `name` and the dialect to talk to it (its name and the
    /// pattern of its notification lines), or `nil` when there is no such profile — the
    /// one place profiles are looked up.
    ///
    /// - `env`: the environmental chamber controller (`EnvironmentalController`); its
    ///   notifications start with `!`.
    static func make(_ name: String) -> (
        device: any SimulatedDevice, dialect: DialectOptions.Name, notificationPattern: LinePattern?
    )? {
        switch name {
        case "env":
            (EnvironmentalController(), .line, try! LinePattern("^!"))
        default:
            nil
        }
    }
}
