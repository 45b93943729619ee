import TetherCommandLine
import TetherModel
import TetherSimulator

/// The dialect options every device command shares (`--dialect` and the options that
/// tune it), and the one place a ``Dialect`` is built from a name and options.
struct DialectOptions {
    /// The dialects by `--dialect` name.
    enum Name: String, CaseIterable {
        /// One reply line per query (``LineDialect``).
        case line
        /// Hayes / 3GPP AT commands (``ATDialect``).
        case at
        /// IEEE 488.2 / SCPI instruments (``SCPIDialect``).
        case scpi
        /// A console with a prompt (``PromptDialect``).
        case prompt
    }

    static let dialect = Option<Name?>(
        "--dialect", value: "name",
        help: """
            How commands and replies are framed: line (one reply line per query), at
            (modem: lines up to OK/ERROR), scpi (instrument: one line per query) or
            prompt (console: output up to its prompt). See docs/DIALECTS.md.
            """, defaultHelp: Name.line.rawValue, parse: Parse.choice(Name.self))
    static let eol = Option<Terminator?>(
        "--eol", value: "eol", help: "Terminator sent after each command: lf, cr or crlf.",
        defaultHelp: "lf for line and scpi, cr for at and prompt", parse: Parse.choice(Terminator.self))
    static let notifyPattern = Option<LinePattern?>(
        "--notify-pattern", value: "regex",
        help: "Received lines matching this regular expression are always notifications.", parse: pattern)
    static let noUnsolicited = Flag(
        "--no-unsolicited",
        help: """
            line and scpi: the device sends nothing unsolicited, so each reply is shown as
            soon as it is complete. Without it (and without --notify-pattern) replies
            settle briefly in case a stray line was taken for one. See docs/DIALECTS.md.
            """)
    static let errorPattern = Option<LinePattern?>(
        "--error-pattern", value: "regex",
        help: "line and prompt: a reply with a line matching this is an error reply.",
        defaultHelp: "^ERR for line", parse: pattern)
    static let urc = Option<[String]>(
        "--urc", value: "prefix",
        help: """
            at: lines starting with this text (plain text, not a regular expression) are
            unsolicited (repeatable), e.g. '^SYSSTART' for Cinterion's start-up code.
            """, each: Parse.nonEmpty(InvalidValue("Please provide a non-empty prefix.")))
    static let finalOK = Option<[String]>(
        "--final-ok", value: "text",
        help: """
            at: a vendor final result code that ends a reply successfully (repeatable),
            e.g. 'SEND OK'; a code ending in ':' matches any line starting with it.
            """, each: codeText)
    static let finalError = Option<[String]>(
        "--final-error", value: "text",
        help: """
            at: a vendor final result code that ends a reply with an error (repeatable),
            e.g. 'ABORTED'. FAIL and SEND FAIL (ESP-AT) are built in.
            """, each: codeText)
    static let checkErrors = Flag(
        "--check-errors",
        help: """
            scpi: after each command read SYST:ERR? until an entry with code 0
            (0,"No error", 0 No Error); any error fails the command (exit 1).
            """)
    static let prompt = Option<String?>(
        "--prompt", value: "text", help: "prompt: the console's prompt, exactly.",
        defaultHelp: "'\(PromptDialect.defaultPrompt)'",
        parse: Parse.nonEmpty(InvalidValue("Please provide the prompt's text, e.g. '=> '.")))

    /// The options, for a command's ``CommandSpec``.
    static let options: [OptionDeclaration] = [
        dialect.declaration, eol.declaration, notifyPattern.declaration, noUnsolicited.declaration,
        errorPattern.declaration, urc.declaration, finalOK.declaration, finalError.declaration,
        checkErrors.declaration, prompt.declaration,
    ]

    private static let codeText = Parse.nonEmpty(InvalidValue("Please provide the code's text, e.g. 'FAIL'."))

    private static let pattern: @Sendable (String) throws(InvalidValue) -> LinePattern = {
        source throws(InvalidValue) in
        do {
            return try LinePattern(source)
        } catch {
            throw InvalidValue("Please provide a valid regular expression.")
        }
    }

    /// `--dialect`, or `nil` when not given.
    var name: Name?
    /// `--eol`, or `nil` for the dialect's own.
    var terminator: Terminator?
    /// `--notify-pattern`.
    var notificationPattern: LinePattern?
    /// `--error-pattern`.
    var errorPattern: LinePattern?
    /// `--urc`, in order.
    var unsolicitedPrefixes: [String]
    /// `--final-ok`, in order.
    var extraSuccessCodes: [String]
    /// `--final-error`, in order.
    var extraErrorCodes: [String]
    /// `--check-errors`.
    var checksErrors: Bool
    /// `--no-unsolicited`: replies do not settle before a stray line is seen.
    var sendsNothingUnsolicited: Bool
    /// `--prompt`.
    var prompt: String?

    /// Reads the options.
    init(_ arguments: ParsedArguments) {
        name = arguments[Self.dialect]
        terminator = arguments[Self.eol]
        notificationPattern = arguments[Self.notifyPattern]
        errorPattern = arguments[Self.errorPattern]
        unsolicitedPrefixes = arguments[Self.urc]
        extraSuccessCodes = arguments[Self.finalOK]
        extraErrorCodes = arguments[Self.finalError]
        checksErrors = arguments[Self.checkErrors]
        sendsNothingUnsolicited = arguments[Self.noUnsolicited]
        prompt = arguments[Self.prompt]
    }

    /// Builds the dialect from the options, with a simulator profile's settings (dialect,
    /// prompt, error and notification patterns) as defaults for those not given.
    ///
    /// - Throws: ``UsageError`` when an option does not apply to the dialect, or the
    ///   profile's patterns are not valid here.
    func makeDialect(defaults profile: DeviceProfile?) throws(UsageError) -> any Dialect {
        guard let profile else { return try makeDialect() }
        func pattern(_ source: String?, _ field: String) throws(UsageError) -> LinePattern? {
            guard let source else { return nil }
            do {
                return try LinePattern(source)
            } catch {
                throw UsageError("The profile '\(profile.name)' has an invalid \(field) '\(source)'")
            }
        }
        return try makeDialect(
            defaultName: Name(rawValue: profile.dialect) ?? .line,
            defaultNotificationPattern: pattern(profile.notificationPattern, "notificationPattern"),
            defaultErrorPattern: pattern(profile.errorPattern, "errorPattern"), defaultPrompt: profile.prompt)
    }

    /// Builds the dialect: `--dialect`, else `defaultName` (e.g. a simulator profile's).
    ///
    /// - Parameters:
    ///   - defaultNotificationPattern: used when `--notify-pattern` is not given.
    ///   - defaultErrorPattern: used by `line` and `prompt` when `--error-pattern` is not given.
    ///   - defaultPrompt: used by `prompt` when `--prompt` is not given.
    /// - Throws: ``UsageError`` when an option does not apply to the dialect.
    func makeDialect(
        defaultName: Name = .line, defaultNotificationPattern: LinePattern? = nil,
        defaultErrorPattern: LinePattern? = nil, defaultPrompt: String? = nil
    ) throws(UsageError) -> any Dialect {
        let name = self.name ?? defaultName
        try require(!unsolicitedPrefixes.isEmpty, Self.urc.declaration, only: [.at], for: name)
        try require(!extraSuccessCodes.isEmpty, Self.finalOK.declaration, only: [.at], for: name)
        try require(!extraErrorCodes.isEmpty, Self.finalError.declaration, only: [.at], for: name)
        try require(checksErrors, Self.checkErrors.declaration, only: [.scpi], for: name)
        try require(sendsNothingUnsolicited, Self.noUnsolicited.declaration, only: [.line, .scpi], for: name)
        try require(prompt != nil, Self.prompt.declaration, only: [.prompt], for: name)
        try require(errorPattern != nil, Self.errorPattern.declaration, only: [.line, .prompt], for: name)
        let notifications = notificationPattern ?? defaultNotificationPattern
        switch name {
        case .line:
            return LineDialect(
                terminator: terminator ?? .lf, notificationPattern: notifications,
                errorPattern: errorPattern ?? defaultErrorPattern ?? LinePattern.defaultError,
                settlesFromStart: notifications == nil && !sendsNothingUnsolicited)
        case .at:
            return ATDialect(
                unsolicitedPrefixes: unsolicitedPrefixes, notificationPattern: notifications,
                terminator: terminator ?? .cr, extraSuccessCodes: extraSuccessCodes, extraErrorCodes: extraErrorCodes)
        case .scpi:
            return SCPIDialect(
                terminator: terminator ?? .lf, checksErrors: checksErrors, notificationPattern: notifications,
                settlesFromStart: notifications == nil && !sendsNothingUnsolicited)
        case .prompt:
            return PromptDialect(
                prompt: prompt ?? defaultPrompt ?? PromptDialect.defaultPrompt, terminator: terminator ?? .cr,
                notificationPattern: notifications, errorPattern: errorPattern ?? defaultErrorPattern)
        }
    }

    private func require(_ given: Bool, _ option: OptionDeclaration, only names: [Name], for name: Name)
        throws(UsageError)
    {
        guard given, !names.contains(name) else { return }
        let allowed = names.map { "'--dialect \($0.rawValue)'" }.joined(separator: " or ")
        throw UsageError("'\(option.key)' applies only to \(allowed) (the dialect is '\(name.rawValue)')")
    }
}
