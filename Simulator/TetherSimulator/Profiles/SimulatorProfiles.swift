import TetherLibC

/// The built-in device profiles (compiled into the binary) and the one place a profile is
/// found by name or path.
///
/// Built-ins: `env` (the default: the ENV-1 environmental controller), `at-modem`,
/// `scpi-psu`, `prompt-console`. They live in `Profiles/BuiltIn/`; the `EmbedProfiles`
/// build-tool plugin turns every `*.json` there into `builtInSources` on each build,
/// so an executable copied anywhere has them, and a file added there is a built-in
/// with no other step.
public enum SimulatorProfiles {
    /// The profile used when none is named.
    public static let defaultName = "env"

    /// The built-in profiles' names, sorted.
    public static var builtInNames: [String] { builtInSources.keys.sorted() }

    /// The built-in profiles, loaded, in name order.
    ///
    /// - Throws: ``ProfileError`` when one is missing or broken (a packaging mistake).
    public static func builtIns() throws(ProfileError) -> [DeviceProfile] {
        var profiles: [DeviceProfile] = []
        for name in builtInNames { profiles.append(try profile(named: name)) }
        return profiles
    }

    /// A profile by built-in name (`at-modem`) or by file path (anything containing `/`,
    /// ending in `.json`, or naming an existing file).
    ///
    /// - Throws: ``ProfileError``: no such built-in (the message lists them), the file
    ///   cannot be read, or the profile has a mistake.
    public static func profile(named nameOrPath: String) throws(ProfileError) -> DeviceProfile {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") || isFile(nameOrPath) {
            return try DeviceProfile.load(path: nameOrPath)
        }
        guard let source = builtInSources[nameOrPath] else {
            throw ProfileError(
                file: nameOrPath, field: "",
                message:
                    "no built-in profile of that name; expected one of \(builtInNames.joined(separator: ", ")) or a file path"
            )
        }
        return try DeviceProfile(data: Array(source.utf8), file: "built-in '\(nameOrPath)'", defaultName: nameOrPath)
    }

    /// A simulated device running a profile found by ``profile(named:)``: the call for
    /// tools and scripts that want a device for `--profile NAME|FILE`.
    ///
    /// - Parameters:
    ///   - nameOrPath: A built-in profile's name (``builtInNames``) or a JSON file's path.
    ///   - seed: Fixes noise and drift (default ``ProfileDevice/defaultSeed``).
    ///   - serialNumber: The `{serial}` field (default ``ProfileDevice/defaultSerialNumber``).
    /// - Throws: ``ProfileError`` as ``profile(named:)``.
    public static func device(
        named nameOrPath: String, seed: UInt64 = ProfileDevice.defaultSeed,
        serialNumber: String = ProfileDevice.defaultSerialNumber
    ) throws(ProfileError) -> ProfileDevice {
        ProfileDevice(profile: try profile(named: nameOrPath), seed: seed, serialNumber: serialNumber)
    }

    /// Whether `name` can name a profile: a built-in name, or a file path (containing `/`,
    /// ending in `.json` or naming an existing file; its content is checked when it is
    /// loaded). Anything else is a usage error for `--profile`, not a profile mistake.
    public static func canName(_ name: String) -> Bool {
        builtInNames.contains(name) || name.contains("/") || name.hasSuffix(".json") || isFile(name)
    }

    /// Whether `name` is a file or folder in the current directory that is not a
    /// built-in profile's name: a path then, whatever its spelling.
    public static func isFile(_ name: String) -> Bool {
        !builtInNames.contains(name) && FileSystem.kind(atPath: name) != nil
    }

    /// The default device (`env`), for ``Simulator``'s default argument.
    ///
    /// - Precondition: The built-in `env` profile loads (checked by the tests of
    ///   `SimulatorProfiles.builtIns()`; a mistake there is reported with its message).
    public static func defaultDevice() -> ProfileDevice {
        do {
            return try device(named: defaultName)
        } catch {
            preconditionFailure("\(error)")
        }
    }
}
