import TetherLibC

/// Why an option's parser refused a value; ``ParsedArguments`` turns it into a
/// ``UsageError`` naming the value and the option.
public struct InvalidValue: Error, Equatable, Sendable {
    private enum Wording: Equatable, Sendable {
        case pleaseProvide(String)
        case expected(String, verb: String)
        case whole(String)
        case detail(String)
    }

    private let wording: Wording

    /// `The value 'x' is invalid for '--baud <rate>'. <advice>`, e.g. advice
    /// `Please provide a positive whole number of baud.`
    public init(_ advice: String) { wording = .pleaseProvide(advice) }

    /// `The value 'x' is invalid for '--latency <ms>': expected <what>`, e.g. what
    /// `a whole number, 0 or more`.
    public static func expected(_ what: String) -> InvalidValue { expected(what, saying: "expected") }

    /// `The value 'x' is invalid for '--linger <ms>': <verb> <what>`, e.g. verb `must
    /// be` (``ValueRange``).
    static func expected(_ what: String, saying verb: String) -> InvalidValue {
        InvalidValue(wording: .expected(what, verb: verb))
    }

    /// `The value 'x' is invalid for '--timeout <duration>': <text>`, e.g. text `unknown
    /// unit 'x': …`.
    public static func because(_ text: String) -> InvalidValue { InvalidValue(wording: .detail(text)) }

    /// A message of its own that does not follow the pattern, e.g. a parser's
    /// description of what is wrong with an address.
    public static func message(_ text: String) -> InvalidValue { InvalidValue(wording: .whole(text)) }

    private init(wording: Wording) { self.wording = wording }

    /// The usage error for `value` given to `option`.
    /// An empty value is named as such (`The value of '--log <file>' is empty`): `''`
    /// in a message is easy to miss.
    func usageError(_ value: String, for option: OptionDeclaration) -> UsageError {
        let start =
            value.isEmpty
            ? "The value of '\(option.display)' is empty"
            : "The value \(Quoted(value)) is invalid for '\(option.display)'"
        switch wording {
        case .pleaseProvide(let advice): return UsageError("\(start). \(advice)")
        case .expected(let what, let verb): return UsageError("\(start): \(verb) \(what)")
        case .whole(let text): return UsageError(text)
        case .detail(let text): return UsageError("\(start): \(text)")
        }
    }
}
