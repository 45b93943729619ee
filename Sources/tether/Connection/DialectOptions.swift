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

    /// The options' specs, for a command's ``CommandSpec``.
    static let specs: [OptionSpec] = [
        .value(
            "--dialect", name: "name",
            help: """
                How commands and replies are framed: line (one reply line per query), at
                (modem: lines up to OK/ERROR), scpi (instrument: one line per query) or
                prompt (console: output up to its prompt). See docs/DIALECTS.md. (default: line)
                """),
        .value(
            "--eol", name: "eol",
            help:
                "Terminator sent after each command: lf, cr or crlf.\n(default: lf for line and scpi, cr for at and prompt)"
        ),
        .value(
            "--notify-pattern", name: "regex",
            help: "Received lines matching this regular expression are always notifications."),
        .flag(
            "--no-unsolicited",
            help: """
                line and scpi: the device sends nothing unsolicited, so each reply is shown as
                soon as it is complete. Without it (and without --notify-pattern) replies
                settle briefly in case a stray line was taken for one. See docs/DIALECTS.md.
                """),
        .value(
            "--error-pattern", name: "regex",
            help: "line and prompt: a reply with a line matching this is an error reply.\n(default for line: ^ERR)"),
        .value(
            "--urc", name: "prefix",
            help:
                "at: lines starting with this text (plain text, not a regular expression) are\nunsolicited (repeatable), e.g. '^SYSSTART' for Cinterion's start-up code.",
            repeatable: true),
        .value(
            "--final-ok", name: "text",
            help:
                "at: a vendor final result code that ends a reply successfully (repeatable),\ne.g. 'SEND OK'; a code ending in ':' matches any line starting with it.",
            repeatable: true),
        .value(
            "--final-error", name: "text",
            help:
                "at: a vendor final result code that ends a reply with an error (repeatable),\ne.g. 'ABORTED'. FAIL and SEND FAIL (ESP-AT) are built in.",
            repeatable: true),
        .flag(
            "--check-errors",
            help: """
                scpi: after each command read SYST:ERR? until an entry with code 0
                (0,"No error", 0 No Error); any error fails the command (exit 1).
                """
        ),
        .value(
            "--prompt", name: "text",
            help: "prompt: the console's prompt, exactly. (default: '\(PromptDialect.defaultPrompt)')"),
    ]

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
    ///
    /// - Throws: ``UsageError`` naming the option for a bad value.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        name = try arguments.choice("--dialect", as: Name.self)
        terminator = try arguments.choice("--eol", as: Terminator.self)
        notificationPattern = try Self.pattern("--notify-pattern", in: arguments)
        errorPattern = try Self.pattern("--error-pattern", in: arguments)
        unsolicitedPrefixes = arguments.allValues("--urc")
        if unsolicitedPrefixes.contains("") {
            throw UsageError.invalidValue(
                "", for: arguments.spec.option(named: "--urc")!, expected: "Please provide a non-empty prefix.")
        }
        extraSuccessCodes = arguments.allValues("--final-ok")
        extraErrorCodes = arguments.allValues("--final-error")
        for option in ["--final-ok", "--final-error"] where arguments.allValues(option).contains("") {
            throw UsageError.invalidValue(
                "", for: arguments.spec.option(named: option)!, expected: "Please provide the code's text, e.g. 'FAIL'."
            )
        }
        checksErrors = arguments.has("--check-errors")
        sendsNothingUnsolicited = arguments.has("--no-unsolicited")
        prompt = arguments.value("--prompt")
        if prompt == "" {
            throw UsageError.invalidValue(
                "", for: arguments.spec.option(named: "--prompt")!,
                expected: "Please provide the prompt's text, e.g. '=> '.")
        }
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
        try require(!unsolicitedPrefixes.isEmpty, "--urc", only: [.at], for: name)
        try require(!extraSuccessCodes.isEmpty, "--final-ok", only: [.at], for: name)
        try require(!extraErrorCodes.isEmpty, "--final-error", only: [.at], for: name)
        try require(checksErrors, "--check-errors", only: [.scpi], for: name)
        try require(sendsNothingUnsolicited, "--no-unsolicited", only: [.line, .scpi], for: name)
        try require(prompt != nil, "--prompt", only: [.prompt], for: name)
        try require(errorPattern != nil, "--error-pattern", only: [.line, .prompt], for: name)
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

    private func require(_ given: Bool, _ option: String, only names: [Name], for name: Name) throws(UsageError) {
        guard given, !names.contains(name) else { return }
        let allowed = names.map { "'--dialect \($0.rawValue)'" }.joined(separator: " or ")
        throw UsageError("'\(option)' applies only to \(allowed) (the dialect is '\(name.rawValue)')")
    }

    private static func pattern(_ option: String, in arguments: ParsedArguments) throws(UsageError) -> LinePattern? {
        guard let source = arguments.value(option) else { return nil }
        do {
            return try LinePattern(source)
        } catch {
            throw UsageError.invalidValue(
                source, for: arguments.spec.option(named: option)!,
                expected: "Please provide a valid regular expression.")
        }
    }
}
