/// What the parser and `--help` know of an option, whatever its value's type: its
/// spellings, its value's placeholder, its help and default, and a check of one value.
///
/// Made by ``Option`` and ``Flag``; a command's ``CommandSpec`` lists these.
public struct OptionDeclaration: Sendable {
    /// Its spellings, long first, e.g. `["--format", "-f"]`.
    public let names: [String]
    /// The value's placeholder, e.g. `rate`; `nil` for a flag.
    public let valueName: String?
    /// Help text; lines broken by hand. Worked out each time it is read, as
    /// ``defaultText`` is.
    public var help: String { describe() }
    /// The default as `--help` shows it (`(default: 115200)`); `nil` for none.
    ///
    /// Worked out each time it is read (help, man page), not when the option is
    /// declared: a command that runs reads no default's text, and describing one can
    /// cost a dynamic cast or building a dialect (docs/PERFORMANCE.md, "Start-up").
    public var defaultText: String? { describeDefault() }
    /// The range of values it takes, in words (`0 to 60000 ms`), as `--help` shows it
    /// (`(allowed: 0 to 60000 ms)`); `nil` when it takes no range (``ValueRange``).
    public let rangeText: String?
    /// Whether it may be given several times (its values accumulate).
    public let isRepeatable: Bool
    /// The values it takes when they are a fixed few (`lf`, `cr`, `crlf`), for shell
    /// completion; empty when any value of its kind goes. Worked out each time it is
    /// read, as ``defaultText`` is.
    public var choices: [String] { listChoices() }
    /// Parses one value, to refuse a bad one as soon as the command line is read.
    let check: @Sendable (String) throws(InvalidValue) -> Void
    /// A warning for a value it takes that may be a mistake (``DurationText``).
    let warn: @Sendable (String) -> String?
    private let describe: @Sendable () -> String
    private let describeDefault: @Sendable () -> String?
    private let listChoices: @Sendable () -> [String]

    init(
        names: [String], valueName: String?, help: @escaping @Sendable () -> String,
        defaultText: @escaping @Sendable () -> String?, rangeText: String? = nil,
        isRepeatable: Bool, choices: @escaping @Sendable () -> [String] = { [] },
        warning: @escaping @Sendable (String) -> String? = { _ in nil },
        check: @escaping @Sendable (String) throws(InvalidValue) -> Void
    ) {
        precondition(names.first?.hasPrefix("--") == true, "an option's first name is its long name")
        self.names = names
        self.valueName = valueName
        describe = help
        describeDefault = defaultText
        self.rangeText = rangeText
        self.isRepeatable = isRepeatable
        listChoices = choices
        warn = warning
        self.check = check
    }

    /// The long name, e.g. `--baud`: the key of its values in ``ParsedArguments``.
    public var key: String { names[0] }

    /// Whether it takes no value.
    public var isFlag: Bool { valueName == nil }

    /// Whether its value may be a file's path, for shell completion: its placeholder
    /// names a file, a path or a port (`file`, `name|file`, `path`, `port`).
    public var takesPath: Bool {
        guard let valueName else { return false }
        return ["file", "path", "port"].contains { valueName.contains($0) }
    }

    /// How it reads in usage and errors, e.g. `--baud <rate>`.
    public var display: String { valueName.map { "\(key) <\($0)>" } ?? key }

    /// The help with its range and default, as `--help` and the man page show them:
    /// `(allowed: …; default: …)` after the last line, or on a line of its own when that
    /// line is long.
    public var fullHelp: String {
        let help = self.help
        let facts = [rangeText.map { "allowed: \($0)" }, defaultText.map { "default: \($0)" }].compactMap { $0 }
        guard !facts.isEmpty else { return help }
        let note = "(" + facts.joined(separator: "; ") + ")"
        let lastLine = help.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        let separator = lastLine.count + note.count > 81 ? "\n" : " "
        return help + separator + note
    }

    /// Checks `value` as the command line would.
    ///
    /// - Throws: ``UsageError`` naming the value and the option.
    public func validate(_ value: String) throws(UsageError) {
        do throws(InvalidValue) {
            try check(value)
        } catch {
            throw error.usageError(value, for: self)
        }
    }

    /// The warning for `value` given to it, e.g. `'--duration 3000' is 50m …`; `nil`
    /// when the value is not one that looks like a mistake.
    public func warning(for value: String) -> String? {
        warn(value).map { "'\(key) \(value)' " + $0 }
    }

    /// The same option with other help, e.g. for a command where it means something
    /// narrower.
    public func withHelp(_ help: String) -> OptionDeclaration {
        OptionDeclaration(
            names: names, valueName: valueName, help: { help }, defaultText: describeDefault,
            rangeText: rangeText, isRepeatable: isRepeatable,
            choices: listChoices, warning: warn, check: check)
    }
}
