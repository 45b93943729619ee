import TetherCommandLine
import TetherLibC

/// The named devices of this user and machine: the sections of the configuration
/// files (``ConfigFile``), the user's first —
/// `$XDG_CONFIG_HOME/tether/config` (`~/.config/tether/config` when `XDG_CONFIG_HOME`
/// is unset or empty, as the XDG Base Directory specification says), then
/// `/etc/tether/config`. A name in the user's file hides the same name in `/etc`.
public struct NamedDevices: Sendable {
    /// The configuration files looked in, in order (whether they exist or not).
    public let paths: [String]

    /// The files for `environment` (``Environment/variables``).
    public init(environment: [String: String] = Environment.variables) {
        var paths: [String] = []
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            paths.append(config + "/tether/config")
        } else if let home = environment["HOME"], !home.isEmpty {
            paths.append(home + "/.config/tether/config")
        }
        paths.append("/etc/tether/config")
        self.init(paths: paths, home: environment["HOME"])
    }

    /// The files `paths`, in order; `home` expands `~/` in their `device` keys.
    public init(paths: [String], home: String?) {
        self.paths = paths
        self.home = home
    }

    private let home: String?

    /// Whether `text`, given where a port goes, may be a device's name rather than a
    /// path or address: it has no `/` and no `:` (`lab-psu`, `modem2`).
    public static func mayName(_ text: String) -> Bool {
        !text.isEmpty && !text.contains("/") && !text.contains(":")
    }

    /// The device called `name`, from the first file that has it.
    ///
    /// - Returns: `nil` when no file has a section of that name.
    /// - Throws: ``UsageError`` for an unreadable file or a bad section (``NamedDevice``).
    public func device(named name: String) throws(UsageError) -> NamedDevice? {
        for path in paths {
            guard let file = try ConfigFile.load(path), let section = file.section(name) else { continue }
            return try NamedDevice(section, file: path, home: home)
        }
        return nil
    }

    /// Every section's name with the file it comes from, the user's first; a name
    /// hidden by the user's file is left out.
    ///
    /// - Throws: ``UsageError`` for a file that cannot be read.
    public func names() throws(UsageError) -> [(name: String, file: String)] {
        var found: [(name: String, file: String)] = []
        for path in paths {
            guard let file = try ConfigFile.load(path) else { continue }
            for section in file.sections where !found.contains(where: { $0.name == section.name }) {
                found.append((section.name, path))
            }
        }
        return found
    }

    /// The message for a port argument that is neither a port nor a name: it lists the
    /// names there are, or says where they would be.
    public func unknown(_ text: String) -> String {
        let known = ((try? names()) ?? []).map(\.name)
        if let nearest = Suggestion.nearest(to: text, among: known) {
            return "No port or named device \(Quoted(text)); did you mean '\(nearest)'?"
        }
        if known.isEmpty {
            return "\(Quoted(text).bare): no such device, and no named device of that name (docs/CONFIG.md)"
        }
        return "No port or named device \(Quoted(text)); named devices: " + known.joined(separator: ", ")
    }
}
