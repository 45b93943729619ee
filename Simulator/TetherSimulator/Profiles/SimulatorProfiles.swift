import Foundation

/// The built-in device profiles (JSON files shipped as resources of this module) and the
/// one place a profile is found by name or path.
///
/// Built-ins: `env` (the default: the ENV-1 environmental controller), `at-modem`,
/// `scpi-psu`, `prompt-console`. They live in `Profiles/BuiltIn/` and are copied by
/// SwiftPM into the `tether_TetherSimulator.resources` folder next to the built
/// executables, where they are looked up.
public enum SimulatorProfiles {
    /// The profile used when none is named.
    public static let defaultName = "env"

    /// The built-in profiles' names, sorted.
    public static var builtInNames: [String] {
        guard let folder = builtInFolder,
            let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

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
        guard let folder = builtInFolder, builtInNames.contains(nameOrPath) else {
            let known = builtInNames
            throw ProfileError(
                file: nameOrPath, field: "",
                message: known.isEmpty
                    ? "the built-in profiles are missing (no tether_TetherSimulator.resources next to \(executableFolder.path)); give a profile file's path"
                    : "no built-in profile of that name; expected one of \(known.joined(separator: ", ")) or a file path"
            )
        }
        let url = folder.appendingPathComponent(nameOrPath + ".json")
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ProfileError(
                file: url.path, field: "", message: "cannot read the file: \(error.localizedDescription)")
        }
        return try DeviceProfile(data: data, file: "built-in '\(nameOrPath)'", defaultName: nameOrPath)
    }

    /// A simulated device running a profile found by ``profile(named:)``: the call for
    /// tools and scripts that want a device for `--profile NAME|FILE`.
    ///
    /// - Parameter seed: Fixes noise and drift (default ``ProfileDevice/defaultSeed``).
    /// - Throws: ``ProfileError`` as ``profile(named:)``.
    public static func device(
        named nameOrPath: String, seed: UInt64 = ProfileDevice.defaultSeed,
        serialNumber: String = ProfileDevice.defaultSerialNumber
    ) throws(ProfileError) -> ProfileDevice {
        ProfileDevice(profile: try profile(named: nameOrPath), seed: seed, serialNumber: serialNumber)
    }

    /// Whether `name` is a file or folder in the current directory that is not a
    /// built-in profile's name: a path then, whatever its spelling.
    public static func isFile(_ name: String) -> Bool {
        !builtInNames.contains(name) && FileManager.default.fileExists(atPath: name)
    }

    /// The default device (`env`), for ``Simulator``'s default argument.
    ///
    /// - Precondition: The built-in profiles were installed with the executable (a
    ///   packaging mistake otherwise, reported with its message).
    public static func defaultDevice() -> ProfileDevice {
        do {
            return try device(named: defaultName)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// The folder of the running executable (also of the test bundle).
    private static var executableFolder: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// `BuiltIn/` inside SwiftPM's resource bundle, searched next to the executable and in
    /// the main bundle (where `Bundle.module` looks), without `Bundle.module`'s crash when
    /// it is absent.
    private static var builtInFolder: URL? {
        let bundleName = "tether_TetherSimulator.resources"
        let candidates = [executableFolder, Bundle.main.bundleURL, Bundle.main.resourceURL].compactMap { $0 }
        return candidates.map { $0.appendingPathComponent(bundleName).appendingPathComponent("BuiltIn") }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }
}
