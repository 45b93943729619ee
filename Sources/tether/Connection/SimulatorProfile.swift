import TetherModel
import TetherSimulator

/// The simulated devices tether can start in-process (`--sim`, `--port NAME=sim:PROFILE`):
/// each profile's device behaviour and the dialect to talk to it.
enum SimulatorProfile {
    /// The profile `--sim` and `NAME=sim` start.
    static let defaultName = "env"

    /// Every profile name, for messages.
    static let names = ["env"]

    /// The device and dialect of the profile `name`, or `nil` when there is none —
    /// the one place profiles are looked up.
    ///
    /// - `env`: the environmental chamber controller (`EnvironmentalController`); its
    ///   notifications start with `!`.
    static func make(_ name: String) -> (device: any SimulatedDevice, dialect: any Dialect)? {
        switch name {
        case "env":
            (EnvironmentalController(), LineDialect(notificationPattern: try! LinePattern("^!")))
        default:
            nil
        }
    }
}
