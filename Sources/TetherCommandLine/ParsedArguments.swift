import TetherLibC

/// A command line split by a ``CommandSpec`` into options, flags and positional
/// arguments, every option value checked by its option's parser.
///
/// Accepts `--name value`, `--name=value`, and `--` to end options: every argument
/// after it is positional, even `-h`. A value is taken as given even when it starts
/// with `-` (so `--timeout -1` reaches the option's parser and gets a message naming
/// the option). Read values typed, by the option: `arguments[Self.baud]`.
public struct ParsedArguments: Sendable {
    /// The spec the arguments were parsed by.
    public let spec: CommandSpec
    /// Raw option values by long name, in the order given; each passed its check.
    private var values: [String: [String]] = [:]
    /// Flags given, by long name.
    private var flags: Set<String> = []
    /// Positional arguments, in order.
    public private(set) var positionals: [String] = []
    /// Warnings for values taken that may not mean what was meant (`'--duration 3000'
    /// is 50m …`), in the order given: for standard error before the command runs.
    public private(set) var warnings: [String] = []

    /// Parses `arguments` (without the program and subcommand names).
    ///
    /// - Throws: ``UsageError`` for an unknown option (with a suggestion), a flag
    ///   given a value, a missing value, a flag or a non-repeatable option given twice, or a
    ///   value the option's parser refuses.
    public init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
        self.spec = spec
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                positionals += remaining
                break
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard let option = spec.option(named: name) else { throw Self.unknownOption(name, in: spec) }
            if option.isFlag {
                if parts.count > 1 { throw UsageError("'\(option.key)' takes no value") }
                guard flags.insert(option.key).inserted else { throw Self.givenTwice(option) }
                continue
            }
            guard let value = parts.count > 1 ? String(parts[1]) : remaining.popFirst() else {
                throw UsageError("Missing value for '\(option.display)'")
            }
            if values[option.key] != nil && !option.isRepeatable { throw Self.givenTwice(option) }
            try option.validate(value)
            if let warning = option.warning(for: value) { warnings.append(warning) }
            values[option.key, default: []].append(value)
        }
        for section in spec.sections { try section.validate(self) }
    }

    /// A non-repeatable option or a flag given a second time (`--baud 1 --baud 2`,
    /// `--sim --sim`): one of them is likely a mistake.
    private static func givenTwice(_ option: OptionDeclaration) -> UsageError {
        UsageError("'\(option.key)' may be given only once")
    }

    /// No arguments at all, to be filled with ``override(values:flags:)``.
    public init(spec: CommandSpec) { self.spec = spec }

    /// Whether `arguments` asks for help: `-h`, `--help` or `--help-all` before any
    /// `--`. Help wins over every other mistake on the line.
    public static func asksForHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { $0 == "-h" || $0 == "--help" || $0 == HelpFormatter.helpAll }
    }

    /// Whether `arguments` asks for every option's help (`--help-all` before any `--`).
    public static func asksForAllHelp(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains(HelpFormatter.helpAll)
    }

    /// The value of `option`: the last given (every one, for a repeatable option),
    /// else its default.
    public subscript<Value>(option: Option<Value>) -> Value {
        guard let given = values[option.declaration.key], !given.isEmpty else { return option.defaultValue }
        // Every stored value passed this option's check; a spec holding another
        // option of the same name would be a programming error.
        return (try? option.read(given)) ?? option.defaultValue
    }

    /// Whether `flag` was given (or set on by a layer).
    public subscript(flag: Flag) -> Bool { flags.contains(flag.declaration.key) }

    /// Whether `option` was given at all (or set by a layer), as a value or a flag.
    public func isGiven(_ option: OptionDeclaration) -> Bool {
        flags.contains(option.key) || values[option.key] != nil
    }

    /// The raw values given for `option`, in order: for settings that are layered
    /// (a command line over a file) before they are read.
    public func rawValues(of option: OptionDeclaration) -> [String] { values[option.key] ?? [] }

    /// Takes `layer`'s values over these: each option it gives replaces this one's
    /// values; each flag it names is on or off as it says.
    ///
    /// - Throws: ``UsageError`` for a value an option's parser refuses, or an option
    ///   this command does not take.
    public mutating func override(values layer: [String: [String]], flags layerFlags: [String: Bool])
        throws(UsageError)
    {
        for (key, given) in layer {
            guard let option = spec.option(named: key), !option.isFlag else {
                throw UsageError("Unknown option \(Quoted(key))")
            }
            for value in given { try option.validate(value) }
            values[option.key] = given
        }
        for (key, isOn) in layerFlags {
            guard let option = spec.option(named: key), option.isFlag else {
                throw UsageError("Unknown option \(Quoted(key))")
            }
            if isOn { flags.insert(option.key) } else { flags.remove(option.key) }
        }
    }

    /// `Unknown option '--bud'. Did you mean '--baud'?`: the nearest option by edit
    /// distance, or one the name starts with (`--baudrate` → `--baud`); or the spec's
    /// own message for that name.
    private static func unknownOption(_ name: String, in spec: CommandSpec) -> UsageError {
        if let message = spec.unknownOptionMessages[name] { return UsageError(message) }
        let known = (spec.allOptions.flatMap(\.names) + ["--help", HelpFormatter.helpAll]).filter {
            $0.hasPrefix("--") == name.hasPrefix("--")
        }
        let prefix = known.filter { $0.count >= 5 && name.hasPrefix($0) }.max { $0.count < $1.count }
        let suggestion = Suggestion.nearest(to: name, among: known) ?? prefix
        return UsageError("Unknown option \(Quoted(name))." + (suggestion.map { " Did you mean '\($0)'?" } ?? ""))
    }
}
