import TetherModel

/// What a query file line expects of its reply (`CMD == TEXT` or `CMD =~ REGEX`).
///
/// An expectation holds when some line of the reply — the final result code (`OK`)
/// included — equals the text (`==`) or contains a match of the regular expression
/// (`=~`, the syntax of `LinePattern`). The reply's error flag does not matter:
/// `SETP 99 =~ ^ERR` holds for an error reply.
public enum QueryExpectation: Sendable, CustomStringConvertible {
    /// `== TEXT`: a line equal to `TEXT`.
    case equals(String)
    /// `=~ REGEX`: a line the expression matches.
    case matches(LinePattern)

    /// Whether the expectation holds for a reply whose lines are `lines`.
    public func holds(for lines: [String]) -> Bool {
        switch self {
        case .equals(let text): lines.contains(text)
        case .matches(let pattern): lines.contains { pattern.matches($0) }
        }
    }

    /// The operator and operand as written, e.g. `=~ ^TETHER`.
    public var description: String {
        switch self {
        case .equals(let text): "== \(text)"
        case .matches(let pattern): "=~ \(pattern.source)"
        }
    }
}
