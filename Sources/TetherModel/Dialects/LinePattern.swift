import TetherLibC

/// A regular expression matched against a received line's text (the line's bytes
/// decoded as UTF-8), in Swift `Regex` syntax — the Perl/ICU-style syntax of
/// `^`, `$`, `\d`, `[a-z]`, `(…)`, `|`, `*?`, `(?i)` — matched over Unicode scalars,
/// as ICU and `NSRegularExpression` match.
public struct LinePattern: Sendable, CustomStringConvertible {
    /// `^ERR`: the line dialect's default error reply.
    public static let defaultError = try! LinePattern("^ERR")

    /// The pattern as written.
    public let source: String
    private let expression: RegexBox

    /// Compiles `source`.
    ///
    /// - Throws: ``LinePatternError`` naming the pattern when it is not a valid
    ///   regular expression.
    public init(_ source: String) throws(LinePatternError) {
        do {
            expression = RegexBox(try Regex(source).matchingSemantics(.unicodeScalar))
        } catch {
            throw LinePatternError(pattern: source)
        }
        self.source = source
    }

    /// Whether the pattern matches anywhere in the line's text.
    public func matches(_ line: Line) -> Bool { matches(line.text) }

    /// Whether the pattern matches anywhere in `text`.
    public func matches(_ text: String) -> Bool {
        (try? expression.value.firstMatch(in: text)) != nil
    }

    /// Where the first match in `text` ends, as a count of UTF-8 bytes from the start
    /// of `text`; `nil` when the pattern does not match.
    public func endOfFirstMatch(in text: String) -> Int? {
        guard let match = try? expression.value.firstMatch(in: text) else { return nil }
        return text.utf8.distance(from: text.startIndex, to: match.range.upperBound)
    }

    public var description: String { source }
}

/// A pattern that is not a valid regular expression.
public struct LinePatternError: Error, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    public var description: String { "\(Quoted(pattern)) is not a valid regular expression" }
}

/// A compiled `Regex` is an immutable value, safe to match from any thread, but
/// `Regex<AnyRegexOutput>` is not marked `Sendable`.
private struct RegexBox: @unchecked Sendable {
    let value: Regex<AnyRegexOutput>
    init(_ value: Regex<AnyRegexOutput>) { self.value = value }
}
