import TetherPresenter
import TetherScript

/// Fuzz target `queryfile`: the query-file parser and its expectations.
///
/// The input is a query file; a second part after a NUL byte gives reply lines to
/// test every expectation against. Checked:
/// - parsing never traps: a file gives steps, or a ``ScriptError`` at a line of the
///   file ("fuzz.txt:N");
/// - steps keep file order, each command is trimmed and part of its line, and
///   non-empty unless the step is a wait line (`=~ REGEX` alone);
/// - `==` and `=~` expectations evaluate on any reply without trapping, and `==`
///   holds exactly when a line equals its text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQueryFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let text = String(decoding: parts[0], as: UTF8.self)
    let sourceLines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    let file: QueryFile
    do {
        file = try QueryFile(parsing: text, name: "fuzz.txt")
    } catch {
        let line = error.location?.line ?? 0
        require(error.location?.file == "fuzz.txt", "an error without the file: \(error)")
        require((1...max(1, sourceLines.count)).contains(line), "an error at line \(line) of \(sourceLines.count)")
        return 0
    }
    let replies =
        parts.count > 1
        ? parts[1].split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) } : []
    var previous = 0
    for step in file.steps {
        require(step.line > previous && step.line <= sourceLines.count, "step at line \(step.line) out of order")
        previous = step.line
        // A wait line (`=~ REGEX` at the start of a line) sends nothing: its command is empty.
        var isWaitLine = false
        if case .matches? = step.expectation { isWaitLine = step.command.isEmpty }
        require(!step.command.isEmpty || isWaitLine, "an empty command at line \(step.line)")
        require(step.command.first?.isWhitespace != true && step.command.last?.isWhitespace != true, "untrimmed")
        require(sourceLines[step.line - 1].contains(step.command), "the command is not in its line")
        switch step.expectation {
        case .equals(let expected)?:
            require(step.expectation!.holds(for: replies) == replies.contains(expected), "== disagrees with equality")
        case .matches?:
            _ = step.expectation!.holds(for: replies)
        case nil:
            break
        }
    }
    return 0
}
