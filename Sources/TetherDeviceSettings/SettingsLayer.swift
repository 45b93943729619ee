import TetherCommandLine

/// Values of the device options (``DeviceSettings/options``) from one source: the
/// command line, a device description file, or a `tether run` port's inline settings.
/// A layer overrides the ones before it key by key: a repeatable option it gives
/// replaces the earlier values, a flag it sets to `false` is off.
public struct SettingsLayer: Sendable, Equatable {
    /// Option values by long name (`--baud`), in order.
    public var values: [String: [String]] = [:]
    /// Flags by long name, on or off.
    public var flags: [String: Bool] = [:]

    /// The device options given on a command line.
    public init(_ arguments: ParsedArguments) {
        for option in DeviceSettings.options where arguments.isGiven(option) {
            if option.isFlag {
                flags[option.key] = true
            } else {
                values[option.key] = arguments.rawValues(of: option)
            }
        }
    }

    /// An empty layer, filled by ``set(_:to:)``.
    public init() {}

    /// The device option spelled `key` (a long name without `--`, e.g. `baud`).
    public static func option(_ key: String) -> OptionDeclaration? {
        DeviceSettings.options.first { $0.key == "--" + key }
    }

    /// The keys a layer may give, for messages.
    public static var keys: [String] { DeviceSettings.options.map { String($0.key.dropFirst(2)) } }

    /// `bud: unknown setting; did you mean 'baud'?` for a key that is no option (nor one
    /// of the `extra` keys the source takes besides, e.g. `port`).
    public static func unknownKey(_ key: String, extra: [String] = []) -> String {
        let known = extra + keys
        return "\(key): unknown setting"
            + (Suggestion.nearest(to: key, among: known).map { "; did you mean '\($0)'?" }
                ?? "; expected one of \(known.joined(separator: ", "))")
    }

    /// Sets `key` to `values` (a flag: `["true"]` or `["false"]`), checking them as the
    /// command line would.
    ///
    /// - Throws: ``SettingError`` starting with the key (`baud: The value 'fast' is
    ///   invalid …`); the caller adds where it was given.
    public mutating func set(_ key: String, to given: [String]) throws(SettingError) {
        guard let option = Self.option(key) else { throw SettingError(Self.unknownKey(key)) }
        if option.isFlag {
            guard given.count == 1, let flag = Bool(given[0]) else {
                throw SettingError("\(key): expected true or false")
            }
            flags[option.key] = flag
            return
        }
        if given.count != 1, !option.isRepeatable {
            throw SettingError("\(key): expected one value, got \(given.count)")
        }
        for value in given {
            do throws(UsageError) {
                try option.validate(value)
            } catch {
                throw SettingError("\(key): \(error.message)")
            }
        }
        values[option.key] = given
    }
}

/// What is wrong with one setting; the caller adds where it was given.
public struct SettingError: Error, Equatable {
    /// The message.
    public var message: String

    public init(_ message: String) { self.message = message }
}
