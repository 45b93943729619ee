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
    /// hidden by the user's file is left out. A file that cannot be read is passed
    /// over, and what is wrong with it is in `problems`.
    public func names() -> (found: [(name: String, file: String)], problems: [UsageError]) {
        var found: [(name: String, file: String)] = []
        var seen: Set<String> = []
        var problems: [UsageError] = []
        for path in paths {
            do throws(UsageError) {
                guard let file = try ConfigFile.load(path) else { continue }
                for section in file.sections where seen.insert(section.name).inserted {
                    found.append((section.name, path))
                }
            } catch {
                problems.append(error)
            }
        }
        return (found, problems)
    }

    /// The message for a port argument that is neither a port nor a name: it lists the
    /// names there are, or says where they would be.
    public func unknown(_ text: String) -> String {
        let known = names().found.map(\.name)
        let start = "No port or named device \(Quoted(text))"
        if let nearest = Suggestion.nearest(to: text, among: known) { return start + "; did you mean '\(nearest)'?" }
        if known.isEmpty { return start + " (no such file, and no [\(Quoted(text).bare)] in docs/CONFIG.md's files)" }
        return start + "; named devices: " + known.joined(separator: ", ")
    }
}
