import TetherSimulator

/// The simulated devices tether can start in-process (`--sim [--profile P]`,
/// `--port NAME=sim:PROFILE`): the built-in profiles of ``SimulatorProfiles`` or a profile
/// file (docs/PROFILES.md), whose dialect, prompt and patterns are the dialect defaults.
package enum SimulatorProfile {
    /// The profile `--sim` and `NAME=sim` start.
    package static let defaultName = SimulatorProfiles.defaultName

    /// Every built-in profile name, for messages.
    package static var names: [String] { SimulatorProfiles.builtInNames }

    /// Whether `name` can name a profile (``SimulatorProfiles/canName(_:)``).
    package static func isValid(_ name: String) -> Bool { SimulatorProfiles.canName(name) }

    /// Loads the profile `name` — the one place profiles are looked up.
    ///
    /// - Throws: ``CommandFailure`` (usage, 64) naming the file, the field and what was
    ///   expected, or listing the built-in names.
    package static func load(_ name: String) throws(CommandFailure) -> DeviceProfile {
        do {
            return try SimulatorProfiles.profile(named: name)
        } catch {
            throw CommandFailure(usage: "Invalid simulator profile: \(error)")
        }
    }
}
