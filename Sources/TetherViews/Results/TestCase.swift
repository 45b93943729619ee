import FoundationEssentials
import TetherPresenter

/// One check of a run (a query file line, a Lua `check`, `expect` or `await`), or the
/// error that ended it, as a test report (JUnit, TAP) shows it.
struct TestCase: Sendable, Equatable {
    /// How a test case ended, in JUnit's terms.
    enum Verdict: Sendable, Equatable {
        /// It held.
        case passed
        /// Its expectation did not hold.
        case failed
        /// It could not be decided: a timeout, a device lost, a script error. `kind`
        /// is `timeout`, `device_lost` or `script_error`.
        case error(kind: String)
        /// It never ran (the device was gone before its turn).
        case skipped
    }

    /// The group: the script's name, and the device's in brackets for a named one
    /// (`checks.lua [psu]`).
    var suite: String
    /// The case: where and what, `checks.lua:3 SETP? == 25.0`.
    var name: String
    var verdict: Verdict
    /// What was expected, e.g. `== 25.0`.
    var expected: String?
    /// What was received.
    var actual: [String]?
    /// Why it did not hold.
    var detail: String?
    /// The device's lines before it (and, for a report written at the end, a few
    /// after), `> ` for sent and `< ` for received, escaped.
    var deviceLines: [String]
    /// When it ended.
    var time: Date
    /// Since the run's previous case (or its start), in seconds.
    var seconds: Double

    /// One line of what went wrong: `expected == 25.0, got 22.0 (error reply)`.
    var message: String {
        if verdict == .skipped, let detail { return TextView.escaped(detail) }
        let text = Self.describe(expected: expected, actual: actual, detail: detail)
        return text.isEmpty ? name : text
    }

    /// `expected == 25.0, got 22.0 (error reply)`, each part only when known; empty
    /// when none is.
    static func describe(expected: String?, actual: [String]?, detail: String?) -> String {
        var parts: [String] = []
        if let expected { parts.append("expected \(TextView.escaped(expected))") }
        if let actual { parts.append("got " + actual.map(TextView.escaped).joined(separator: " | ")) }
        var text = parts.joined(separator: ", ")
        if let detail { text += text.isEmpty ? TextView.escaped(detail) : " (\(TextView.escaped(detail)))" }
        return text
    }
}
