import TetherModel
import TetherPresenter

/// A parsed query file: the simple script form, one command per line.
///
/// Syntax (also in `docs/SCRIPTING.md`):
/// - Each line is trimmed of leading and trailing blanks: spaces, tabs, CR and the
///   other Unicode spaces (a no-break space copied from a datasheet), with any
///   combining mark that sits on one.
/// - An empty line, or one whose first character is `#`, is ignored. A `#` later in
///   a line is part of the command.
/// - Otherwise the line is a command, optionally followed by an expectation: an
///   operator `==` or `=~` with at least one blank (or the start of the line)
///   before it and at least one blank (or the end of the line) after it, then
///   the operand up to the end of the line. The first such operator splits the line;
///   the command is what precedes it, trimmed, and must not be empty.
/// - `== TEXT` wants a reply line equal to `TEXT`; `=~ REGEX` one that the regular
///   expression matches (see ``QueryExpectation``).
/// - A command's escapes are decoded (`CommandText/bytes(fromEscaped:)`: `\r`,
///   `\xNN`…). A command written in double quotes, the whole of it, is sent as written
///   between them, blanks included: `""` is the empty command (the line end alone, a
///   bare Enter), `" "` a single space.
/// - A line that starts with `=~` sends nothing: it waits for received text the
///   expression matches (a wait line, ``QueryStep/isWait``).
public struct QueryFile: Sendable {
    /// The commands, in file order.
    public var steps: [QueryStep]

    /// Parses `text`; `name` is used in error locations.
    ///
    /// - Throws: ``ScriptError`` at the first bad line: an operator without a
    ///   command, `==` without a text, an empty or invalid regular expression.
    public init(parsing text: String, name: String) throws(ScriptError) {
        var steps: [QueryStep] = []
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            let line = Self.trimmed(Substring(rawLine))
            if line.isEmpty || line.hasPrefix("#") { continue }
            let location = SourceLocation(file: name, line: number)
            if line.hasPrefix("@") {
                var step = QueryStep(line: number, command: String(line), bytes: [], expectation: nil)
                step.control = try QueryControl(parsing: line.dropFirst(), at: location)
                steps.append(step)
                continue
            }
            guard let (operatorRange, isRegex) = Self.findOperator(in: line) else {
                steps.append(try Self.step(line: number, command: line, expectation: nil, at: location))
                continue
            }
            let command = Self.trimmed(line[..<operatorRange.lowerBound])
            let operand = String(Self.trimmed(line[operatorRange.upperBound...]))
            guard !command.isEmpty || isRegex else {
                throw ScriptError(at: location, "expectation without a command before '=='")
            }
            let expectation: QueryExpectation
            if isRegex {
                guard !operand.isEmpty else { throw ScriptError(at: location, "'=~' needs a regular expression") }
                do {
                    expectation = .matches(try LinePattern(operand))
                } catch {
                    throw ScriptError(at: location, "\(error)")
                }
            } else {
                guard !operand.isEmpty else {
                    throw ScriptError(at: location, "'==' needs the text of a reply line (for an empty line: '=~ ^$')")
                }
                expectation = .equals(operand)
            }
            if command.isEmpty {
                steps.append(QueryStep(line: number, command: "", bytes: [], expectation: expectation, isWait: true))
            } else {
                steps.append(try Self.step(line: number, command: command, expectation: expectation, at: location))
            }
        }
        self.steps = steps
    }

    /// The step that sends `command` (trimmed, not empty): quotes around the whole of
    /// it removed, its escapes decoded.
    private static func step(
        line: Int, command: Substring, expectation: QueryExpectation?, at location: SourceLocation
    ) throws(ScriptError) -> QueryStep {
        var text = command
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        do {
            let bytes = try CommandText.bytes(fromEscaped: String(text))
            return QueryStep(line: line, command: String(command), bytes: bytes, expectation: expectation)
        } catch {
            throw ScriptError(at: location, error.description)
        }
    }

    /// A space, tab, CR or other Unicode space (`Character.isWhitespace`, which holds
    /// for a space that carries a combining mark too); lines are already split at
    /// line feeds.
    private static func isBlank(_ character: Character) -> Bool {
        character.isWhitespace
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let start = text.firstIndex { !isBlank($0) } ?? text.endIndex
        let end = text.lastIndex { !isBlank($0) }.map { text.index(after: $0) } ?? start
        return text[start..<max(start, end)]
    }

    /// The first `==` or `=~` with a blank or the start before it and a blank or the
    /// end after it.
    private static func findOperator(in line: Substring) -> (Range<Substring.Index>, isRegex: Bool)? {
        var index = line.startIndex
        while index < line.endIndex {
            let next = line.index(after: index)
            if line[index] == "=", next < line.endIndex, line[next] == "=" || line[next] == "~",
                index == line.startIndex || isBlank(line[line.index(before: index)])
            {
                let end = line.index(after: next)
                if end == line.endIndex || isBlank(line[end]) {
                    return (index..<end, line[next] == "~")
                }
            }
            index = next
        }
        return nil
    }
}
