/// An option that takes a value, declared once: its names, its value's placeholder,
/// its help, its default and its parser. Read it from ``ParsedArguments`` by
/// subscript, typed: `arguments[Self.baud]`.
///
/// ```swift
/// static let baud = Option<Int>(
///     "--baud", "-b", value: "rate", help: "Baud rate in bit/s.", default: 115_200,
///     range: .integers(1...4_000_000, "baud"))
/// ```
///
/// Three shapes, by the type read: `Option<T>` has a default (shown by `--help`);
/// `Option<T?>` reads `nil` when not given; `Option<[T]>` is repeatable and reads
/// every value given, in order. Given twice, a non-repeatable option is a usage error.
public struct Option<Value: Sendable>: Sendable {
    /// Its names, placeholder, help and check, for the parser and `--help`.
    public let declaration: OptionDeclaration
    /// What it reads as when not given.
    let defaultValue: Value
    /// The value of the raw values given (at least one), in order.
    let read: @Sendable ([String]) throws(InvalidValue) -> Value

    /// An option with a default.
    ///
    /// - Parameters:
    ///   - names: long name first, e.g. `"--timeout", "-t"`.
    ///   - value: the value's placeholder in help and errors, e.g. `ms`.
    ///   - help: what it does; lines broken by hand. Evaluated only when help, a man
    ///     page or a completion script shows it, as `defaultHelp` and `choices` are.
    ///   - defaultValue: the value when not given; `--help` shows it (a string raw
    ///     value for an enumeration) unless `defaultHelp` says it otherwise.
    ///   - defaultHelp: evaluated only when help or a man page shows it.
    ///   - choices: the values it takes when they are a fixed few, for shell completion
    ///     (an enumeration's raw values when not given); evaluated only when read.
    ///   - parse: the value of the text given; throws ``InvalidValue`` for a bad one.
    ///
    /// An enumeration's raw values (`CaseIterable`) are its ``OptionDeclaration/choices``.
    public init(
        _ names: String..., value: String, help: @autoclosure @escaping @Sendable () -> String,
        default defaultValue: Value,
        defaultHelp: @autoclosure @escaping @Sendable () -> String? = nil,
        choices: @autoclosure @escaping @Sendable () -> [String]? = nil,
        parse: @escaping @Sendable (String) throws(InvalidValue) -> Value
    ) {
        self.init(
            names: names, value: value, help: help, default: defaultValue, defaultHelp: defaultHelp, range: nil,
            choices: choices, warning: { _ in nil }, parse: parse)
    }

    /// An option with a default whose values are a range: its parser is the range's,
    /// and `--help` states the range (``ValueRange``).
    public init(
        _ names: String..., value: String, help: @autoclosure @escaping @Sendable () -> String,
        default defaultValue: Value,
        defaultHelp: @autoclosure @escaping @Sendable () -> String? = nil, range: ValueRange<Value>
    ) {
        self.init(
            names: names, value: value, help: help, default: defaultValue, defaultHelp: defaultHelp,
            range: range.description, choices: { nil }, warning: range.warning, parse: range.parse)
    }

    private init(
        names: [String], value: String, help: @escaping @Sendable () -> String, default defaultValue: Value,
        defaultHelp: @escaping @Sendable () -> String?, range: String?, choices: @escaping @Sendable () -> [String]?,
        warning: @escaping @Sendable (String) -> String?,
        parse: @escaping @Sendable (String) throws(InvalidValue) -> Value
    ) {
        declaration = OptionDeclaration(
            names: names, valueName: value, help: help, defaultText: { defaultHelp() ?? Self.describe(defaultValue) },
            rangeText: range, isRepeatable: false, choices: { choices() ?? rawValues(of: Value.self) },
            warning: warning, check: { text throws(InvalidValue) in _ = try parse(text) })
        self.defaultValue = defaultValue
        read = { values throws(InvalidValue) in try parse(values[values.count - 1]) }
    }

    /// An option without a default: it reads `nil` when not given.
    ///
    /// - Parameters:
    ///   - defaultHelp: what happens when it is not given, for `--help`
    ///     (e.g. `lf for line and scpi, cr for at and prompt`); `nil` to say nothing.
    ///     Evaluated only when help or a man page shows it.
    ///   - choices: the values it takes when they are a fixed few, for shell completion
    ///     (an enumeration's raw values when not given); evaluated only when read.
    public init<Wrapped>(
        _ names: String..., value: String, help: @autoclosure @escaping @Sendable () -> String,
        defaultHelp: @autoclosure @escaping @Sendable () -> String? = nil,
        choices: @autoclosure @escaping @Sendable () -> [String]? = nil,
        parse: @escaping @Sendable (String) throws(InvalidValue) -> Wrapped
    ) where Value == Wrapped? {
        self.init(
            optionalNames: names, value: value, help: help, defaultHelp: defaultHelp, range: nil, choices: choices,
            warning: { _ in nil }, parse: parse)
    }

    /// An option without a default whose values are a range: its parser is the
    /// range's, and `--help` states the range (``ValueRange``).
    public init<Wrapped>(
        _ names: String..., value: String, help: @autoclosure @escaping @Sendable () -> String,
        defaultHelp: @autoclosure @escaping @Sendable () -> String? = nil, range: ValueRange<Wrapped>
    ) where Value == Wrapped? {
        self.init(
            optionalNames: names, value: value, help: help, defaultHelp: defaultHelp, range: range.description,
            choices: { nil }, warning: range.warning, parse: range.parse)
    }

    private init<Wrapped>(
        optionalNames names: [String], value: String, help: @escaping @Sendable () -> String,
        defaultHelp: @escaping @Sendable () -> String?, range: String?, choices: @escaping @Sendable () -> [String]?,
        warning: @escaping @Sendable (String) -> String?,
        parse: @escaping @Sendable (String) throws(InvalidValue) -> Wrapped
    ) where Value == Wrapped? {
        declaration = OptionDeclaration(
            names: names, valueName: value, help: help, defaultText: defaultHelp, rangeText: range, isRepeatable: false,
            choices: { choices() ?? rawValues(of: Wrapped.self) }, warning: warning,
            check: { text throws(InvalidValue) in _ = try parse(text) })
        defaultValue = nil
        read = { values throws(InvalidValue) in try parse(values[values.count - 1]) }
    }

    /// A repeatable option: it reads every value given, in order (none: `[]`).
    public init<Element>(
        _ names: String..., value: String, help: @autoclosure @escaping @Sendable () -> String,
        each parse: @escaping @Sendable (String) throws(InvalidValue) -> Element
    ) where Value == [Element] {
        declaration = OptionDeclaration(
            names: names, valueName: value, help: help, defaultText: { nil }, isRepeatable: true,
            choices: { rawValues(of: Element.self) }, check: { text throws(InvalidValue) in _ = try parse(text) })
        defaultValue = []
        read = { values throws(InvalidValue) in
            var parsed: [Element] = []
            for value in values { parsed.append(try parse(value)) }
            return parsed
        }
    }

    private init(
        declaration: OptionDeclaration, defaultValue: Value,
        read: @escaping @Sendable ([String]) throws(InvalidValue) -> Value
    ) {
        self.declaration = declaration
        self.defaultValue = defaultValue
        self.read = read
    }

    /// The same option with other help (e.g. narrower on one command).
    public func withHelp(_ help: String) -> Option {
        Option(declaration: declaration.withHelp(help), defaultValue: defaultValue, read: read)
    }

    private static func describe(_ value: Value) -> String {
        if let choice = value as? any RawRepresentable<String> { return choice.rawValue }
        if let duration = value as? Duration { return DurationText.describe(duration) }
        return "\(value)"
    }
}

/// An option that takes no value (`--sim`): on when given. Read it from
/// ``ParsedArguments`` by subscript: `arguments[Self.sim]`.
public struct Flag: Sendable {
    /// Its names and help, for the parser and `--help`.
    public let declaration: OptionDeclaration

    /// - Parameters:
    ///   - names: long name first, e.g. `"--echo"`.
    ///   - help: what it does; lines broken by hand. Evaluated only when shown.
    public init(_ names: String..., help: @autoclosure @escaping @Sendable () -> String) {
        declaration = OptionDeclaration(
            names: names, valueName: nil, help: help, defaultText: { nil }, isRepeatable: false, check: { _ in })
    }
}

/// The raw values of `type` when it is an enumeration of strings (`CaseIterable`), in
/// declaration order: the choices ``Parse/choice(_:)`` takes; else none.
private func rawValues<T>(of type: T.Type) -> [String] {
    guard let choices = type as? any (CaseIterable & RawRepresentable<String>).Type else { return [] }
    return allRawValues(choices)
}

private func allRawValues<T: CaseIterable & RawRepresentable<String>>(_ type: T.Type) -> [String] {
    T.allCases.map(\.rawValue)
}
