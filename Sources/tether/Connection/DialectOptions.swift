import TetherModel
import TetherSimulator

/// The dialect options every device command shares (`--dialect` and the options that
/// tune it), read into the Model's ``DialectSettings`` and built by the dialect's
/// ``DialectKind`` from ``DialectRegistry/builtIn``.
struct DialectOptions {
    /// The dialects `--dialect` knows.
    static let registry = DialectRegistry.builtIn
    /// The dialect without `--dialect` (and without a simulator profile that names one).
    static let defaultKind = LineDialect.kind

    /// The options' specs, for a command's ``CommandSpec``.
    static let specs: [OptionSpec] = [
        .value("--dialect", name: "name", help: dialectHelp),
        .value(
            "--eol", name: "eol",
            help: "Terminator sent after each command: lf, cr or crlf.\n(default: \(defaultTerminators))"),
        .value(
            "--notify-pattern", name: "regex",
            help: "Received lines matching this regular expression are always notifications."),
        .flag(
            "--no-unsolicited",
            help: """
                \(dialects(taking: .sendsNothingUnsolicited)): the device sends nothing unsolicited, so each reply is shown as
                soon as it is complete. Without it (and without --notify-pattern) replies
                settle briefly in case a stray line was taken for one. See docs/DIALECTS.md.
                """),
        .value(
            "--error-pattern", name: "regex",
            help: """
                \(dialects(taking: .errorPattern)): a reply with a line matching this is an error reply.
                (default for line: ^ERR)
                """),
        .value(
            "--urc", name: "prefix",
            help: """
                \(dialects(taking: .unsolicitedPrefixes)): lines starting with this text (plain text, not a regular expression) are
                unsolicited (repeatable), e.g. '^SYSSTART' for Cinterion's start-up code.
                """,
            repeatable: true),
        .value(
            "--final-ok", name: "text",
            help: """
                \(dialects(taking: .extraSuccessCodes)): a vendor final result code that ends a reply successfully (repeatable),
                e.g. 'SEND OK'; a code ending in ':' matches any line starting with it.
                """,
            repeatable: true),
        .value(
            "--final-error", name: "text",
            help: """
                \(dialects(taking: .extraErrorCodes)): a vendor final result code that ends a reply with an error (repeatable),
                e.g. 'ABORTED'. FAIL and SEND FAIL (ESP-AT) are built in.
                """,
            repeatable: true),
        .flag(
            "--check-errors",
            help: """
                \(dialects(taking: .checksErrors)): after each command read SYST:ERR? until an entry with code 0
                (0,"No error", 0 No Error); any error fails the command (exit 1).
                """
        ),
        .value(
            "--prompt", name: "text",
            help: """
                \(dialects(taking: .prompt)): the console's prompt, exactly. (default: '\(PromptDialect.defaultPrompt)')
                """),
    ]

    /// `--dialect`, or `nil` when not given.
    var kind: DialectKind?
    /// The other options: `--eol`, `--notify-pattern`, `--error-pattern`, `--urc`,
    /// `--final-ok`, `--final-error`, `--check-errors`, `--no-unsolicited`, `--prompt`.
    var settings: DialectSettings

    /// Reads the options.
    ///
    /// - Throws: ``UsageError`` naming the option for a bad value.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        let names = Self.registry.names.map { "'\($0)'" }.joined(separator: ", ")
        kind = try arguments.value("--dialect", expected: "Please provide one of \(names).") {
            Self.registry[$0.lowercased()]
        }
        settings = DialectSettings(
            terminator: try arguments.choice("--eol", as: Terminator.self),
            notificationPattern: try Self.pattern("--notify-pattern", in: arguments),
            errorPattern: try Self.pattern("--error-pattern", in: arguments),
            unsolicitedPrefixes: arguments.allValues("--urc"), extraSuccessCodes: arguments.allValues("--final-ok"),
            extraErrorCodes: arguments.allValues("--final-error"), checksErrors: arguments.has("--check-errors"),
            sendsNothingUnsolicited: arguments.has("--no-unsolicited"), prompt: arguments.value("--prompt"))
        if settings.unsolicitedPrefixes.contains("") {
            throw UsageError.invalidValue(
                "", for: arguments.spec.option(named: "--urc")!, expected: "Please provide a non-empty prefix.")
        }
        for option in ["--final-ok", "--final-error"] where arguments.allValues(option).contains("") {
            throw UsageError.invalidValue(
                "", for: arguments.spec.option(named: option)!, expected: "Please provide the code's text, e.g. 'FAIL'."
            )
        }
        if settings.prompt == "" {
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
            defaultKind: Self.registry[profile.dialect] ?? Self.defaultKind,
            defaults: DialectSettings(
                notificationPattern: pattern(profile.notificationPattern, "notificationPattern"),
                errorPattern: pattern(profile.errorPattern, "errorPattern"), prompt: profile.prompt))
    }

    /// Builds the dialect: `--dialect`, else `defaultKind` (e.g. a simulator profile's),
    /// with `defaults` for the settings it takes that are not given.
    ///
    /// - Throws: ``UsageError`` when an option does not apply to the dialect.
    func makeDialect(
        defaultKind: DialectKind = Self.defaultKind, defaults: DialectSettings = DialectSettings()
    ) throws(UsageError) -> any Dialect {
        let kind = self.kind ?? defaultKind
        do {
            return try kind.makeDialect(settings, defaults: defaults)
        } catch {
            let allowed = Self.registry.names(taking: error.setting).map { "'--dialect \($0)'" }
            throw UsageError(
                "'\(Self.option(error.setting))' applies only to \(allowed.joined(separator: " or ")) "
                    + "(the dialect is '\(kind.name)')")
        }
    }

    /// The option that gives `setting`.
    private static func option(_ setting: DialectSetting) -> String {
        switch setting {
        case .terminator: "--eol"
        case .notificationPattern: "--notify-pattern"
        case .errorPattern: "--error-pattern"
        case .unsolicitedPrefixes: "--urc"
        case .extraSuccessCodes: "--final-ok"
        case .extraErrorCodes: "--final-error"
        case .checksErrors: "--check-errors"
        case .sendsNothingUnsolicited: "--no-unsolicited"
        case .prompt: "--prompt"
        }
    }

    /// `--dialect`'s help: each dialect on a line of its own, with its summary.
    private static var dialectHelp: String {
        let rows = registry.kinds.map { kind in
            "  " + kind.name + String(repeating: " ", count: max(1, 8 - kind.name.count)) + kind.summary
        }
        return (["How commands and replies are framed (docs/DIALECTS.md):"] + rows + ["(default: \(defaultKind.name))"])
            .joined(separator: "\n")
    }

    /// The dialects that take `setting`, for help: `line and prompt`.
    private static func dialects(taking setting: DialectSetting) -> String {
        list(registry.names(taking: setting))
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func list(_ names: [String]) -> String {
        names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + names.last! : names.joined()
    }

    /// Each terminator with the dialects it is the default of, for `--eol`'s help:
    /// `lf for line and scpi, cr for at and prompt`.
    private static var defaultTerminators: String {
        var groups: [(Terminator, [String])] = []
        for kind in registry.kinds {
            let terminator = kind.defaultDialect.terminator
            if let index = groups.firstIndex(where: { $0.0 == terminator }) {
                groups[index].1.append(kind.name)
            } else {
                groups.append((terminator, [kind.name]))
            }
        }
        return groups.map { terminator, names in "\(terminator.rawValue) for \(list(names))" }.joined(separator: ", ")
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
