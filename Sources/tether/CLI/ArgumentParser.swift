/// Splits a command line into options, flags and positional arguments by a
/// ``CommandSpec``.
///
/// Accepts `--name value`, `--name=value`, and `--` to end options. A value is taken
/// as given even when it starts with `-` (so `--timeout -1` reaches validation and
/// gets a message naming the option).
struct ParsedArguments {
    /// The spec the arguments were parsed by.
    let spec: CommandSpec
    /// Option values by long name, in the order given.
    private(set) var values: [String: [String]] = [:]
    /// Flags given, by long name.
    private(set) var flags: Set<String> = []
    /// Positional arguments, in order.
    private(set) var positionals: [String] = []

    /// Parses `arguments` (without the command name).
    ///
    /// - Throws: ``UsageError`` for an unknown option (with a suggestion), a missing
    ///   value, or a non-repeatable option given twice.
    init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
        self.spec = spec
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let option = spec.option(named: parts[0]) else {
                throw Self.unknownOption(parts[0], in: spec)
            }
            guard option.valueName != nil else {
                if parts.count > 1 { throw UsageError("'\(option.key)' takes no value") }
                flags.insert(option.key)
                continue
            }
            let value: String
            if parts.count > 1 {
                value = parts[1]
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError("Missing value for '\(option.display)'")
            }
            if values[option.key] != nil && !option.isRepeatable {
                throw UsageError("'\(option.key)' may be given only once")
            }
            values[option.key, default: []].append(value)
        }
    }

    /// No arguments at all, to be filled with ``override(with:)``.
    init(spec: CommandSpec) { self.spec = spec }

    /// Takes the values of `layer` over these: each option it gives replaces this
    /// one's values, each flag it sets is on or off as it says.
    mutating func override(with layer: SettingsLayer) {
        values.merge(layer.values) { $1 }
        for (flag, isOn) in layer.flags {
            if isOn { flags.insert(flag) } else { flags.remove(flag) }
        }
    }

    /// Whether the flag `name` was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// The raw value of option `name`, if given.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option, in order.
    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of option `name` converted by `convert`.
    ///
    /// - Throws: ``UsageError/invalidValue(_:for:expected:)`` with `expected` when
    ///   `convert` returns `nil`.
    func value<T>(_ name: String, expected: String, _ convert: (String) -> T?) throws(UsageError) -> T? {
        guard let raw = value(name) else { return nil }
        guard let converted = convert(raw) else {
            throw UsageError.invalidValue(raw, for: spec.option(named: name)!, expected: expected)
        }
        return converted
    }

    /// The value of an option whose values are the raw values of `T`.
    func choice<T: RawRepresentable & CaseIterable>(_ name: String, as type: T.Type) throws(UsageError) -> T?
    where T.RawValue == String {
        let names = T.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        return try value(name, expected: "Please provide one of \(names).") { T(rawValue: $0.lowercased()) }
    }

    /// The longest duration an option accepts, in seconds (about 31 years): longer ones
    /// would overflow `Duration`.
    static let longestSeconds = 1e9

    /// The value of option `name` as a duration in seconds (decimals allowed), greater
    /// than 0 and at most ``longestSeconds``.
    ///
    /// - Throws: ``UsageError`` naming the option for any other value.
    func duration(_ name: String) throws(UsageError) -> Duration? {
        let seconds = try value(name, expected: "Please provide a number of seconds greater than 0, at most 1e9.") {
            Double($0).flatMap { $0 > 0 && $0 <= Self.longestSeconds ? $0 : nil }
        }
        return seconds.map { .milliseconds(Int64(($0 * 1000).rounded())) }
    }

    /// `Unknown option '--bud'. Did you mean '--baud'?`: the nearest option by edit
    /// distance, or one the name starts with (`--baudrate` → `--baud`); `--port` on a
    /// command whose port is an argument says so.
    private static func unknownOption(_ name: String, in spec: CommandSpec) -> UsageError {
        if name == "--port", spec.arguments.contains(where: { $0.name == "port" }) {
            return UsageError(
                "Unknown option '--port'. The port is an argument here: 'tether \(spec.name) <port> …' (or '--sim')")
        }
        let known = (spec.options.flatMap(\.names) + ["--help"]).filter { $0.hasPrefix("--") == name.hasPrefix("--") }
        let near = known.map { ($0, EditDistance.between($0, name)) }
            .filter { $0.1 <= max(2, name.count / 3) }
            .min { $0.1 < $1.1 }?.0
        let prefix = known.filter { $0.count >= 5 && name.hasPrefix($0) }.max { $0.count < $1.count }
        let suggestion = near ?? prefix
        return UsageError("Unknown option '\(name)'." + (suggestion.map { " Did you mean '\($0)'?" } ?? ""))
    }
}

/// Levenshtein distance, for "Did you mean" suggestions.
enum EditDistance {
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
