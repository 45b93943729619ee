/// The lines a command (or an error) answers with: fixed templates, or templates chosen
/// by a property's value as shown (e.g. by `cmee`: `ERROR`, `+CME ERROR: 3`, …).
enum ProfileReply: Equatable, Sendable {
    /// These lines, in order (none for an empty array).
    case lines([ReplyTemplate])
    /// The lines of the case whose key equals the property's shown value, else `default`.
    case choice(property: String, cases: [String: [ReplyTemplate]], default: [ReplyTemplate])

    /// The templates to send, given how a property is shown.
    func templates(shown: (String) -> String) -> [ReplyTemplate] {
        switch self {
        case .lines(let lines): lines
        case .choice(let property, let cases, let fallback): cases[shown(property)] ?? fallback
        }
    }
}
