import TetherLibC

/// A profile's regular expression: a command row's `regex`, or a pattern given to
/// tether (`promptPattern`, `errorPattern`, `notificationPattern`), docs/PROFILES.md.
///
/// Swift `Regex` syntax — the Perl/ICU-style syntax of `^`, `$`, `\d`, `[a-z]`, `(…)`,
/// `|`, `*?`, `(?i)` — matched over Unicode scalars, as tether's `--prompt-regex` is.
/// Compiled once and immutable, so safe to share between threads (`Regex` is not
/// marked `Sendable`).
struct ProfilePattern: @unchecked Sendable {
    /// How many capture groups the pattern has: a row's `{1}`…`{9}` fields.
    let captureCount: Int
    private let expression: Regex<AnyRegexOutput>

    /// Compiles `source`; `nil` when it is not a valid regular expression.
    init?(_ source: String, ignoresCase: Bool = false) {
        guard let expression = try? Regex(source) else { return nil }
        self.expression = expression.ignoresCase(ignoresCase).matchingSemantics(.unicodeScalar)
        captureCount = Self.captureCount(source)
    }

    /// The message for a `source` that does not compile.
    static func compileError(_ source: String) -> String {
        "\(Quoted(source)) does not compile; expected a regular expression (Swift Regex syntax)"
    }

    /// The groups' texts (`""` for a group that took no part) when the first match at
    /// the start of `line` is the whole line, else `nil`.
    ///
    /// The first match, not any match: `A|AB` does not answer `AB`, as a row matched by
    /// an anchored search (the ICU rule these profiles have always had).
    func wholeLineCaptures(_ line: String) -> [String]? {
        guard let found = try? expression.prefixMatch(in: line), found.range.upperBound == line.endIndex
        else { return nil }
        return found.output.dropFirst().map { $0.substring.map(String.init) ?? "" }
    }

    /// The number of groups of a pattern that compiles: a match's output has one entry
    /// per group whatever matched, so the pattern is made to match the empty text by an
    /// empty alternative. The line end closes an `(?x)` comment at its end; `\E` closes
    /// a `\Q` quote left open, which `Regex` refuses anywhere else.
    private static func captureCount(_ source: String) -> Int {
        for wrapped in ["(?:\(source)\n)|", "(?:\(source)\\E\n)|"] {
            if let regex = try? Regex(wrapped), let empty = try? regex.wholeMatch(in: "") {
                return empty.output.count - 1
            }
        }
        return 0
    }
}
