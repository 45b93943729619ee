import TetherLibC

/// One row of a profile's command table: which lines it answers, and how.
///
/// JSON: `{"match": "SETP?", "reply": "{setpoint}"}`,
/// `{"regex": "^SETP[ \\t]+(.+)$", "set": {"setpoint": "{1}"}, "reply": "OK"}`,
/// `{"regex": "^SETP$", "error": {"code": -109, "message": "Missing parameter"}}`,
/// `{"match": "SYST:ERR?", "action": "popError"}`. The first row that matches a line
/// (trimmed of spaces and tabs) handles it.
struct ProfileCommand: Sendable, DecodableInProfile {
    /// What the row does besides setting and replying.
    enum Action: String, CaseIterable, Sendable {
        /// Every property back to its initial value (`*RST`, `ATZ`).
        case reset
        /// Reply with the oldest error-queue entry and remove it (`SYST:ERR?`).
        case popError
        /// Empty the error queue (`*CLS`).
        case clearErrors
    }

    /// The exact text to match, or `nil` when ``regex`` is used.
    let text: String?
    /// The whole-line regular expression, or `nil` when ``text`` is used.
    let regex: ProfilePattern?
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
    /// Exact bytes sent before the reply's lines, as they are (no line start or end):
    /// a binary block, a payload with CR and LF in it. JSON: `"bytes"`, hex pairs,
    /// blanks between them allowed (`"23 34 32 30 30 30"`).
    let bytes: [UInt8]
    /// A prompt for a text (an SMS, 3GPP TS 27.005 §3.5.1): the line is answered with
    /// these bytes as they are (JSON `"textPrompt"`, e.g. `"\r\n> "` or `">\r\n"`);
    /// the device then takes every byte as the text until Ctrl-Z (0x1A), which runs the
    /// row (its `set`, `action`, `reply` and the final reply), or ESC (0x1B), which
    /// cancels it (the final reply alone). `nil` for an ordinary row.
    let textPrompt: String?

    static let keys = ["match", "regex", "ignoreCase", "set", "reply", "error", "action", "bytes", "textPrompt"]

    /// Reads and checks one entry of `commands`.
    ///
    /// - Parameter configuration: The profile's properties, and its `ignoreCase`.
    init(from decoder: any Decoder, configuration: (scope: TemplateScope, ignoresCase: Bool)) throws {
        let object = try decoder.profileObject(keys: Self.keys)
        ignoresCase = try object.bool("ignoreCase") ?? configuration.ignoresCase
        var captures = 0
        switch (object.has("match"), object.has("regex")) {
        case (true, false):
            text = try object.string("match")
            regex = nil
        case (false, true):
            let source = try object.required(object.string("regex"), "regex", "a regular expression")
            guard let pattern = ProfilePattern(source, ignoresCase: ignoresCase) else {
                throw object.error("regex", ProfilePattern.compileError(source))
            }
            regex = pattern
            captures = pattern.captureCount
            text = nil
        case (true, true):
            throw decoder.error("give either 'match' or 'regex', not both")
        case (false, false):
            throw decoder.error("missing 'match' (exact text) or 'regex' (regular expression)")
        }
        let scope = configuration.scope.with(captures: captures)
        let set = try object.member("set") { set in
            guard let members = try? set.container(keyedBy: ProfileKey.self) else {
                throw set.expected("an object: property name → value template")
            }
            return members
        }
        var assignments: [(Int, ReplyTemplate)] = []
        for key in set?.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) ?? [] {
            guard let set, let index = scope.properties.firstIndex(where: { $0.name == key.stringValue }) else {
                throw decoder.error(
                    "unknown property \(Quoted(key.stringValue)); expected one of: \(scope.properties.map(\.name).joined(separator: ", "))",
                    at: [ProfileKey(stringValue: "set"), key])
            }
            assignments.append((index, try ReplyTemplate(from: set.superDecoder(forKey: key), configuration: scope)))
        }
        self.assignments = assignments.sorted { $0.0 < $1.0 }
        reply = try object.optional(ProfileReply.self, "reply", configuration: scope)
        error = try object.optional(ProfileErrors.Entry.self, "error", configuration: scope)
        let hex = try object.string("bytes")
        guard let bytes = hex.map(Self.bytes(fromHex:)) ?? [] else {
            throw object.error("bytes", "expected hex pairs, e.g. \"23 30 0a\"")
        }
        self.bytes = bytes
        textPrompt = try object.string("textPrompt")
        if let name = try object.string("action") {
            guard let action = Action(rawValue: name) else {
                throw object.error(
                    "action",
                    "unknown action \(Quoted(name)); expected one of: \(Action.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            self.action = action
        } else {
            action = nil
        }
        if error != nil, set != nil || reply != nil || action != nil || !bytes.isEmpty {
            throw object.error("error", "a row with 'error' cannot also 'set', 'reply' or have an 'action'")
        }
        if action == .popError, reply != nil {
            throw object.error("reply", "the reply of 'popError' is the error entry; remove 'reply'")
        }
    }

    /// The bytes that hex pairs stand for (blanks between pairs allowed), or `nil`.
    static func bytes(fromHex text: String) -> [UInt8]? {
        let digits = text.filter { $0 != " " }
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    /// The captures if the row matches `line` (`[]` for an exact match), else `nil`.
    func match(_ line: String) -> [String]? {
        if let text {
            let equal = ignoresCase ? line.lowercased() == text.lowercased() : line == text
            return equal ? [] : nil
        }
        return regex?.wholeLineCaptures(line)
    }
}
