import Foundation

/// One row of a profile's command table: which lines it answers, and how.
///
/// JSON: `{"match": "SETP?", "reply": "{setpoint}"}`,
/// `{"regex": "^SETP[ \\t]+(.+)$", "set": {"setpoint": "{1}"}, "reply": "OK"}`,
/// `{"regex": "^SETP$", "error": {"code": -109, "message": "Missing parameter"}}`,
/// `{"match": "SYST:ERR?", "action": "popError"}`. The first row that matches a line
/// (trimmed of spaces and tabs) handles it.
struct ProfileCommand: Sendable {
    /// What the row does besides setting and replying.
    enum Action: String, CaseIterable, Sendable {
        /// Every property back to its initial value (`*RST`, `ATZ`).
        case reset
        /// Reply with the oldest error-queue entry and remove it (`SYST:ERR?`).
        case popError
        /// Empty the error queue (`*CLS`).
        case clearErrors
    }

    /// A compiled regular expression (immutable, so safe to share).
    struct Expression: @unchecked Sendable {
        let value: NSRegularExpression
    }

    /// The exact text to match, or `nil` when ``regex`` is used.
    let text: String?
    /// The whole-line regular expression (ICU syntax), or `nil` when ``text`` is used.
    let regex: Expression?
    /// Letter case does not matter.
    let ignoresCase: Bool
    /// Properties to set, in the profile's property order: index and value template.
    let assignments: [(property: Int, value: ReplyTemplate)]
    /// The reply lines on success.
    let reply: ProfileReply?
    /// The row always fails with this error.
    let error: ProfileErrors.Entry?
    /// An action, done after the assignments.
    let action: Action?

    static let keys = ["match", "regex", "ignoreCase", "set", "reply", "error", "action"]

    /// Reads and checks one entry of `commands`.
    ///
    /// - Parameter ignoresCaseByDefault: The profile's `ignoreCase`.
    init(_ reader: ProfileReader, scope: TemplateScope, ignoresCaseByDefault: Bool) throws(ProfileError) {
        let object = try reader.object(keys: Self.keys)
        ignoresCase = try object["ignoreCase"]?.bool() ?? ignoresCaseByDefault
        var captures = 0
        switch (object["match"], object["regex"]) {
        case (let match?, nil):
            text = try match.string()
            regex = nil
        case (nil, let pattern?):
            let source = try pattern.string()
            do {
                let expression = try NSRegularExpression(
                    pattern: source, options: ignoresCase ? [.caseInsensitive] : [])
                regex = Expression(value: expression)
                captures = expression.numberOfCaptureGroups
            } catch {
                throw pattern.error("'\(source)' does not compile; expected a regular expression (ICU syntax)")
            }
            text = nil
        case (.some, .some):
            throw reader.error("give either 'match' or 'regex', not both")
        case (nil, nil):
            throw reader.error("missing 'match' (exact text) or 'regex' (regular expression)")
        }
        var assignments: [(Int, ReplyTemplate)] = []
        if let setReader = object["set"] {
            guard case .object(let members) = setReader.value else {
                throw setReader.expected("an object: property name → value template")
            }
            for name in members.keys.sorted() {
                let valueReader = ProfileReader(value: members[name]!, path: setReader.child(name), file: reader.file)
                guard let index = scope.properties.firstIndex(where: { $0.name == name }) else {
                    throw valueReader.error(
                        "unknown property '\(name)'; expected one of: \(scope.properties.map(\.name).joined(separator: ", "))"
                    )
                }
                assignments.append((index, try scope.template(valueReader, captures: captures)))
            }
        }
        self.assignments = assignments.sorted { $0.0 < $1.0 }
        reply = try object["reply"].map { reader throws(ProfileError) in try scope.reply(reader, captures: captures) }
        error = try object["error"].map { reader throws(ProfileError) in
            try ProfileErrors.Entry(reader, scope: scope, captures: captures)
        }
        if let actionReader = object["action"] {
            let name = try actionReader.string()
            guard let action = Action(rawValue: name) else {
                throw actionReader.error(
                    "unknown action '\(name)'; expected one of: \(Action.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            self.action = action
        } else {
            action = nil
        }
        if error != nil, object["set"] != nil || reply != nil || action != nil {
            throw object["error"]!.error("a row with 'error' cannot also 'set', 'reply' or have an 'action'")
        }
        if action == .popError, reply != nil {
            throw object["reply"]!.error("the reply of 'popError' is the error entry; remove 'reply'")
        }
    }

    /// The captures if the row matches `line` (`[]` for an exact match), else `nil`.
    func match(_ line: String) -> [String]? {
        if let text {
            let equal = ignoresCase ? line.caseInsensitiveCompare(text) == .orderedSame : line == text
            return equal ? [] : nil
        }
        guard let regex else { return nil }
        let whole = NSRange(line.startIndex..., in: line)
        guard let found = regex.value.firstMatch(in: line, options: [.anchored], range: whole),
            found.range == whole
        else { return nil }
        return (1..<max(1, found.numberOfRanges)).map { group in
            Range(found.range(at: group), in: line).map { String(line[$0]) } ?? ""
        }
    }
}
