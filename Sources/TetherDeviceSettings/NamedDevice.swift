import TetherCommandLine
import TetherLibC
import TetherSerial
import TetherSimulator

/// A device by name: one `[name]` section of a configuration file (``ConfigFile``), so
/// `tether connect lab-psu` opens the port it names with its settings.
///
/// A section names its port with exactly one of
/// - `port`: a device path or symlink (e.g. a `/dev/serial/by-id/…` link),
///   `rfc2217://HOST:PORT`, `tcp://HOST:PORT`, or `sim` / `sim:PROFILE` for the built-in
///   simulator; `~/` is `$HOME`, and a bare word (`ttyUSB0`) is refused as no path;
/// - `match`: what `--match` takes (`VID:PID[:SERIAL]` or part of the product name);
///
/// and may give `device` (a device description file; a relative path is read from the
/// configuration file's folder, `~/` from `$HOME`), `description` (free text), and
/// every key a device description file takes (``DeviceSettings/options``).
/// Precedence, highest first: the command line, `--device FILE`, the section's own
/// keys, the section's `device` file, the defaults (docs/CONFIG.md).
public struct NamedDevice: Sendable, Equatable {
    /// Where a named device is.
    public enum Place: Sendable, Equatable {
        /// A path or a `tcp://` / `rfc2217://` address, as typed.
        case port(String)
        /// A `--match` pattern.
        case match(PortMatch)
        /// The built-in simulator with this profile (`nil`: the default one).
        case simulator(profile: String?)
    }

    /// The section's name, e.g. `lab-psu`.
    public var name: String
    /// Where the device is.
    public var place: Place
    /// `description`, if given.
    public var description: String?
    /// Its settings, lowest first: its `device` file's, then its own keys'.
    public var settings: [SettingsLayer]
    /// The configuration file it comes from, for messages and `tether list`.
    public var file: String

    /// The keys of a section that are not device options.
    static let placeKeys = ["port", "match", "device", "description"]

    /// Reads `section` of the configuration file `file`.
    ///
    /// - Throws: ``UsageError`` `FILE: [NAME] …` for no or two places, an unknown key
    ///   (with the nearest known one), a bad value, or an unreadable `device` file.
    public init(_ section: ConfigFile.Section, file: String, home: String? = Environment.variables["HOME"])
        throws(UsageError)
    {
        let origin = "\(file): [\(section.name)]"
        func single(_ key: String) throws(UsageError) -> String? {
            guard let values = section.values[key] else { return nil }
            guard values.count == 1 else {
                throw UsageError("\(origin) \(key): given \(values.count) times; give it once")
            }
            guard !values[0].isEmpty else { throw UsageError("\(origin) \(key): the value is empty") }
            return values[0]
        }
        for key in section.values.keys.sorted()
        where !Self.placeKeys.contains(key) && SettingsLayer.option(key) == nil {
            throw UsageError("\(origin) " + SettingsLayer.unknownKey(key, extra: Self.placeKeys))
        }
        name = section.name
        self.file = file
        description = try single("description")
        switch (try single("port"), try single("match")) {
        case (let port?, nil):
            place = try Self.place(Self.path(port, besides: nil, home: home), origin: origin)
        case (nil, let match?):
            do throws(PortMatch.ParseError) {
                place = .match(try PortMatch(parsing: match))
            } catch {
                throw UsageError("\(origin) match: \(error.description)")
            }
        case (nil, nil):
            throw UsageError("\(origin): no 'port' or 'match'; give one, e.g. port = /dev/ttyUSB0")
        case (.some, .some):
            throw UsageError("\(origin): both 'port' and 'match'; give one")
        }
        var own = SettingsLayer()
        for (key, values) in section.values.sorted(by: { $0.key < $1.key }) where !Self.placeKeys.contains(key) {
            do throws(SettingError) {
                try own.set(key, to: values)
            } catch {
                throw UsageError("\(origin) \(error.message)")
            }
        }
        settings = [own]
        if let device = try single("device") {
            do throws(UsageError) {
                settings.insert(try DeviceDescription.load(Self.path(device, besides: file, home: home)), at: 0)
            } catch {
                throw UsageError("\(origin) device: \(error.message)")
            }
        }
    }

    /// A `port` value as a place.
    private static func place(_ text: String, origin: String) throws(UsageError) -> Place {
        if text == "sim" { return .simulator(profile: nil) }
        if text.hasPrefix("sim:") {
            let profile = String(text.dropFirst(4))
            guard SimulatorProfiles.canName(profile) else {
                throw UsageError(
                    "\(origin) port: unknown simulator profile \(Quoted(profile)); profiles: "
                        + SimulatorProfiles.builtInNames.joined(separator: ", "))
            }
            return .simulator(profile: profile)
        }
        if NamedDevices.mayName(text) {
            throw UsageError(
                "\(origin) port: \(Quoted(text)) is no path or address; write /dev/\(text), ./\(text), rfc2217://HOST:PORT or sim"
            )
        }
        do throws(PortAddress.ParseError) {
            _ = try PortAddress(parsing: text)
        } catch {
            throw UsageError("\(origin) port: \(error.description)")
        }
        return .port(text)
    }

    /// `path` as written in the configuration file `file`: `~/…` from `home`, a relative
    /// path from the file's folder (`nil`: left relative, as a port's is).
    static func path(_ path: String, besides file: String?, home: String?) -> String {
        if path.hasPrefix("~/"), let home { return home + path.dropFirst(1) }
        if path.hasPrefix("/") { return path }
        guard let file, let slash = file.lastIndex(of: "/") else { return path }
        return file[...slash] + path
    }
}
