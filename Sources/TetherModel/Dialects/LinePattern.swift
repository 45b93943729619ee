import Foundation

/// A regular expression matched against a received line's text
/// (ICU syntax, as `NSRegularExpression`; the line's bytes decoded as UTF-8).
public struct LinePattern: Sendable, CustomStringConvertible {
    /// `^ERR`: the line dialect's default error reply.
    public static let defaultError = try! LinePattern("^ERR")

    /// The pattern as written.
    public let source: String
    private let expression: NSRegularExpressionBox

    /// Compiles `source`.
    ///
    /// - Throws: ``LinePatternError`` naming the pattern when it is not a valid
    ///   regular expression.
    public init(_ source: String) throws(LinePatternError) {
        do {
            expression = NSRegularExpressionBox(try NSRegularExpression(pattern: source))
        } catch {
            throw LinePatternError(pattern: source)
        }
        self.source = source
    }

    /// Whether the pattern matches anywhere in the line's text.
    public func matches(_ line: Line) -> Bool { matches(line.text) }

    /// Whether the pattern matches anywhere in `text`.
    public func matches(_ text: String) -> Bool {
        let range = NSRange(text.startIndex..., in: text)
        return expression.value.firstMatch(in: text, range: range) != nil
    }

    public var description: String { source }
}

/// A pattern that is not a valid regular expression.
public struct LinePatternError: Error, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    public var description: String { "'\(pattern)' is not a valid regular expression" }
}

/// `NSRegularExpression` is immutable and thread-safe once built, but not marked
/// `Sendable` in swift-corelibs-foundation.
private struct NSRegularExpressionBox: @unchecked Sendable {
    let value: NSRegularExpression
    init(_ value: NSRegularExpression) { self.value = value }
}
