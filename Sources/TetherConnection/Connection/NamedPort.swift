import TetherCommandLine
import TetherDeviceSettings
import TetherLibC

/// A device of `tether run`, from a `--port` value: `PATH`, `NAME=PATH`, `NAME=sim` or
/// `NAME=sim:PROFILE` — where PATH may be a named device's name (``NamedDevice``) —
/// optionally followed by its own settings,
/// `,KEY=VALUE,KEY=VALUE…`; or from `--sim` (unnamed, default profile).
///
/// A key is a device option's long name without `--` (``DeviceSettings/options``:
/// `baud`, `parity`, `dialect`, `eol`, `urc`…), or `device` for a device description
/// file. A repeatable option is repeated (`urc=^A,urc=^B`); a flag takes `true` or
/// `false`. Values cannot hold a comma: put such a setting in a description file.
/// E.g. `modem=/dev/ttyUSB1,dialect=at,baud=9600` or `psu=sim:scpi-psu,check-errors=true`.
package struct NamedPort {
    /// The script's name for it (`devices.NAME`); `nil` for the unnamed device.
    package var name: String?
    /// Where it is.
    package var target: PortTarget
    /// Its own settings, over the command line's: its description file, then its
    /// inline settings.
    package var settings: [SettingsLayer] = []
    /// The settings of the named device it names (``NamedDevice``), under the command
    /// line's.
    package var namedSettings: [SettingsLayer] = []

    /// Parses a `--port` value. A value is `NAME=…` when the text before its first
    /// `=` is an identifier (a letter or `_`, then letters, digits, `_`); otherwise
    /// the whole value is a path.
    ///
    /// - Throws: ``UsageError`` for an empty path, a name that is not an identifier,
    ///   an unknown simulator profile, or a setting that is not a device option or has
    ///   a bad value.
    package init(parsing value: String) throws(UsageError) {
        guard !value.isEmpty else {
            throw UsageError(
                "The value of '--port <port>' is empty; give a path, NAME=PATH or NAME=sim (e.g. /dev/ttyUSB0)")
        }
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        let place = parts[0]
        var rest = place
        if let equals = place.firstIndex(of: "=") {
            let candidate = place[..<equals]
            guard Self.isIdentifier(candidate) || candidate.contains("/") else {
                throw UsageError(
                    "The device name \(Quoted(candidate)) in \(Quoted("--port " + value)) is not a name: start with a letter or '_', then letters, digits or '_'"
                )
            }
            if !candidate.contains("/") {
                name = String(candidate)
                rest = place[place.index(after: equals)...]
            }
        }
        guard !rest.isEmpty else {
            throw UsageError(
                "The value \(Quoted(value)) is invalid for '--port <port>'. Please provide a path after '='.")
        }
        if name != nil, rest == "sim" || rest.hasPrefix("sim:") {
            let profile = rest == "sim" ? SimulatorProfile.defaultName : String(rest.dropFirst(4))
            guard SimulatorProfile.isValid(profile) else {
                let known = SimulatorProfile.names.map { "'\($0)'" }.joined(separator: ", ")
                throw UsageError(
                    "Unknown simulator profile \(Quoted(profile)) in \(Quoted(value)). Profiles: \(known).")
            }
            target = .simulator(profile: profile)
        } else if let named = try ConnectionOptions.namedDevice(String(rest)) {
            switch named.place {
            case .port(let place): target = .port(try ConnectionOptions.address(place))
            case .simulator(let profile): target = .simulator(profile: profile ?? SimulatorProfile.defaultName)
            case .match:
                throw UsageError(
                    "The named device \(Quoted(rest)) is found by 'match', which '--port' does not take; give its 'port' in \(named.file)"
                )
            }
            namedSettings = named.settings
        } else {
            target = .port(try ConnectionOptions.address(String(rest)))
        }
        settings = try Self.settings(parts.dropFirst(), in: value)
    }

    /// The unnamed simulator of `--sim`, running `--profile` (default `env`).
    package init(simulatorProfile profile: String?) {
        name = nil
        target = .simulator(profile: profile ?? SimulatorProfile.defaultName)
    }

    /// The layers of `KEY=VALUE` items: the `device=FILE` description, then the others.
    private static func settings(_ items: ArraySlice<Substring>, in value: String) throws(UsageError) -> [SettingsLayer]
    {
        var file: SettingsLayer?
        var given: [(key: String, values: [String])] = []
        for item in items {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw UsageError(
                    "The setting \(Quoted(item)) in \(Quoted("--port " + value)) is not KEY=VALUE (e.g. baud=9600, dialect=at, device=modem.json)"
                )
            }
            let key = String(item[..<equals])
            let text = String(item[item.index(after: equals)...])
            if key == "device" {
                file = try DeviceDescription.load(text)
            } else if let index = given.firstIndex(where: { $0.key == key }) {
                given[index].values.append(text)
            } else {
                given.append((key, [text]))
            }
        }
        var inline = SettingsLayer()
        for (key, values) in given {
            do throws(SettingError) {
                try inline.set(key, to: values)
            } catch {
                throw UsageError("'--port \(value)': \(error.message)")
            }
        }
        return (file.map { [$0] } ?? []) + (given.isEmpty ? [] : [inline])
    }

    private static func isIdentifier(_ text: Substring) -> Bool {
        guard let first = text.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return text.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}
