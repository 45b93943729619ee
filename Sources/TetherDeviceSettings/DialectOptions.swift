import TetherCommandLine
import TetherLibC
import TetherModel
import TetherSimulator

/// The dialect options every device command shares (`--dialect` and the options that
/// tune it), read into the Model's ``DialectSettings`` and built by the dialect's
/// ``DialectKind`` from ``DialectRegistry/builtIn``.
public struct DialectOptions {
    /// The dialects `--dialect` knows.
    public static let registry = DialectRegistry.builtIn
    /// The dialect without `--dialect` (and without a simulator profile that names one).
    public static let defaultKind = LineDialect.kind

    public static let dialect = Option<DialectKind?>(
        "--dialect", value: "name", help: dialectHelp, defaultHelp: defaultKind.name, choices: registry.names,
        parse: { text throws(InvalidValue) in
            guard let kind = registry[text.lowercased()] else {
                let names = registry.names.map { "'\($0)'" }.joined(separator: ", ")
                throw InvalidValue("Please provide one of \(names).")
            }
            return kind
        })
    public static let eol = Option<Terminator?>(
        "--eol", value: "eol", help: "Terminator sent after each command: lf, cr, crlf or none.",
        defaultHelp: defaultTerminators, parse: Parse.choice(Terminator.self))
    public static let notifyPattern = Option<LinePattern?>(
        "--notify-pattern", value: "regex",
        help: "Received lines matching this regular expression are always notifications.", parse: pattern)
    public static let noUnsolicited = Flag(
        "--no-unsolicited",
        help: """
            \(dialects(taking: .sendsNothingUnsolicited)): the device sends nothing unsolicited: no listen before the first
            command and no settling from the start, whatever a device file or simulator
            profile says (--listen). Replies still settle once a stray line is seen.
            """)
    public static let listen = Option<Duration?>(
        "--listen", value: "duration",
        help: """
            \(dialects(taking: .listenPeriod)): the device speaks unasked: listen this long after the port opens, before
            the first command, to learn what it says (e.g. 150ms), and let every reply settle
            in case a stray line was taken for it. Without it replies are shown at once until
            the device shows that it speaks unasked. See docs/DIALECTS.md, "Stray lines".
            """,
        range: .durations(.zero, to: .seconds(60), bare: .milliseconds))
    public static let errorPattern = Option<LinePattern?>(
        "--error-pattern", value: "regex",
        help: "\(dialects(taking: .errorPattern)): a reply with a line matching this is an error reply.",
        defaultHelp: "^ERR for line", parse: pattern)
    public static let urc = Option<[String]>(
        "--urc", value: "prefix",
        help: """
            \(dialects(taking: .unsolicitedPrefixes)): lines starting with this text (plain text, not a regular expression) are
            unsolicited (repeatable), e.g. '^SYSSTART' for Cinterion's start-up code.
            """, each: Parse.nonEmpty(InvalidValue("Please provide a non-empty prefix.")))
    public static let finalOK = Option<[String]>(
        "--final-ok", value: "text",
        help: """
            \(dialects(taking: .extraSuccessCodes)): a vendor final result code that ends a reply successfully (repeatable),
            e.g. 'SEND OK'; a code ending in ':' matches any line starting with it.
            """, each: codeText)
    public static let finalError = Option<[String]>(
        "--final-error", value: "text",
        help: """
            \(dialects(taking: .extraErrorCodes)): a vendor final result code that ends a reply with an error (repeatable),
            e.g. 'ABORTED'. FAIL and SEND FAIL (ESP-AT) are built in.
            """, each: codeText)
    public static let payloadHeader = Option<[PayloadHeaderTemplate]>(
        "--payload-header", value: "form",
        help: """
            \(dialects(taking: .payloadHeaders)): a length-prefixed binary payload's header (repeatable), {len} its
            length: '+CIPRECVDATA:{len},' (payload after it, ending the line) or '+QIRD: {len}'
            (a header line, payload after its line end). +IPD and +QIRD are built in.
            See docs/DIALECTS.md, "Binary payloads".
            """,
        each: { text throws(InvalidValue) in
            do throws(PayloadHeaderTemplate.Invalid) {
                return try PayloadHeaderTemplate(text)
            } catch {
                throw InvalidValue(
                    "Please provide a header with one {len} field, e.g. '+IPD,{id},{len}:': \(error.reason).")
            }
        })
    public static let checkErrors = Flag(
        "--check-errors",
        help: """
            \(dialects(taking: .checksErrors)): after each command read SYST:ERR? until an entry with code 0
            (0,"No error", 0 No Error); any error fails the command (exit 1).
            """)
    public static let prompt = Option<String?>(
        "--prompt", value: "text",
        help: """
            \(dialects(taking: .prompt)): the console's prompt, exactly (no CR or LF). It ends a reply once nothing
            has followed it for 50 ms.
            """,
        defaultHelp: "'\(PromptDialect.defaultPrompt)'",
        parse: { text throws(InvalidValue) in
            guard !text.isEmpty else { throw InvalidValue("Please provide the prompt's text, e.g. '=> '.") }
            // The prompt is matched in the text after the last line end: it can hold none.
            guard !text.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) else {
                throw InvalidValue("Please provide a prompt without CR or LF: it is the text after the last line end.")
            }
            return text
        })

    public static let promptRegex = Option<LinePattern?>(
        "--prompt-regex", value: "regex",
        help: """
            \(dialects(taking: .promptPattern)): the console's prompt as a regular expression, for a prompt that
            changes (a shell's working directory), matched where it ends the text after the
            last line end, e.g. '^[a-z]+@[^:]+:[^#$]*[#$] $'. Instead of --prompt.
            """, parse: pattern)
    public static let promptWait = Option<Duration?>(
        "--prompt-wait", value: "duration",
        help: """
            \(dialects(taking: .readinessWait)): after a timeout, wait up to this long for the prompt before the
            next command (a busy console may discard what is typed meanwhile).
            """, defaultHelp: DurationText.describe(PromptDialect.defaultReadinessWait),
        range: .durations(.zero, to: .seconds(3_600), bare: .milliseconds))

    public static let noEcho = Flag(
        "--no-echo",
        help: """
            \(dialects(taking: .doesNotEcho)): the console does not echo what is typed (its echo is off): a reply is
            every line after the command is written. Without it a reply starts after the
            command's echo, and lines before the echo are notifications.
            """)

    /// The options, for a command's ``CommandSpec``.
    public static let options: [OptionDeclaration] = [
        dialect.declaration, eol.declaration, notifyPattern.declaration, noUnsolicited.declaration,
        listen.declaration, errorPattern.declaration, urc.declaration, finalOK.declaration, finalError.declaration,
        payloadHeader.declaration, checkErrors.declaration, prompt.declaration, promptRegex.declaration,
        promptWait.declaration, noEcho.declaration,
    ]

    private static let codeText = Parse.nonEmpty(InvalidValue("Please provide the code's text, e.g. 'FAIL'."))

    /// The parser of an option that takes a regular expression for received lines
    /// (``LinePattern``); an empty one, which matches every line, is refused as the
    /// mistake it always is (a shell variable that was not set).
    public static let pattern: @Sendable (String) throws(InvalidValue) -> LinePattern = {
        source throws(InvalidValue) in
        guard !source.isEmpty else {
            throw InvalidValue("Please provide a non-empty regular expression (an empty one matches every line).")
        }
        do {
            return try LinePattern(source)
        } catch {
            throw InvalidValue("Please provide a valid regular expression.")
        }
    }

    /// `--dialect`, or `nil` when not given.
    public var kind: DialectKind?
    /// The other options: `--eol`, `--notify-pattern`, `--error-pattern`, `--urc`,
    /// `--final-ok`, `--final-error`, `--payload-header`, `--check-errors`, `--no-unsolicited`,
    /// `--listen`, `--prompt`, `--prompt-regex`, `--prompt-wait`, `--no-echo`.
    public var settings: DialectSettings

    /// Reads the options.
    public init(_ arguments: ParsedArguments) {
        kind = arguments[Self.dialect]
        settings = DialectSettings(
            terminator: arguments[Self.eol], notificationPattern: arguments[Self.notifyPattern],
            errorPattern: arguments[Self.errorPattern], unsolicitedPrefixes: arguments[Self.urc],
            extraSuccessCodes: arguments[Self.finalOK], extraErrorCodes: arguments[Self.finalError],
            checksErrors: arguments[Self.checkErrors], sendsNothingUnsolicited: arguments[Self.noUnsolicited],
            listenPeriod: arguments[Self.listen],
            prompt: arguments[Self.prompt], promptPattern: arguments[Self.promptRegex],
            readinessWait: arguments[Self.promptWait], doesNotEcho: arguments[Self.noEcho],
            payloadHeaders: arguments[Self.payloadHeader])
    }

    /// Builds the dialect from the options, with a simulator profile's settings (dialect,
    /// prompt or prompt pattern, error and notification patterns, the listen of a device
    /// that speaks unasked: ``DeviceProfile/listenPeriod``) as defaults for those
    /// not given; a prompt given on the command line, exact or a pattern, replaces the
    /// profile's either way.
    ///
    /// - Throws: ``UsageError`` when an option does not apply to the dialect, or the
    ///   profile's patterns are not valid here.
    public func makeDialect(defaults profile: DeviceProfile?) throws(UsageError) -> any Dialect {
        guard let profile else { return try makeDialect() }
        func pattern(_ source: String?, _ field: String) throws(UsageError) -> LinePattern? {
            guard let source else { return nil }
            do {
                return try LinePattern(source)
            } catch {
                throw UsageError("The profile \(Quoted(profile.name)) has an invalid \(field) \(Quoted(source))")
            }
        }
        let promptGiven = settings.prompt != nil || settings.promptPattern != nil
        return try makeDialect(
            defaultKind: Self.registry[profile.dialect] ?? Self.defaultKind,
            defaults: DialectSettings(
                notificationPattern: pattern(profile.notificationPattern, "notificationPattern"),
                errorPattern: pattern(profile.errorPattern, "errorPattern"),
                listenPeriod: profile.listenPeriod.map { .milliseconds($0) }, prompt: profile.prompt,
                promptPattern: promptGiven ? nil : pattern(profile.promptPattern, "promptPattern")))
    }

    /// Builds the dialect: `--dialect`, else `defaultKind` (e.g. a simulator profile's),
    /// with `defaults` for the settings it takes that are not given.
    ///
    /// - Throws: ``UsageError`` when an option does not apply to the dialect, or both
    ///   `--prompt` and `--prompt-regex` are given.
    public func makeDialect(
        defaultKind: DialectKind = Self.defaultKind, defaults: DialectSettings = DialectSettings()
    ) throws(UsageError) -> any Dialect {
        let kind = self.kind ?? defaultKind
        if settings.prompt != nil, settings.promptPattern != nil {
            throw UsageError("Give only one of '--prompt' and '--prompt-regex'")
        }
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
        case .listenPeriod: "--listen"
        case .prompt: "--prompt"
        case .promptPattern: "--prompt-regex"
        case .readinessWait: "--prompt-wait"
        case .doesNotEcho: "--no-echo"
        case .payloadHeaders: "--payload-header"
        }
    }

    /// `--dialect`'s help: each dialect on a line of its own, with its summary.
    private static var dialectHelp: String {
        let rows = registry.kinds.map { kind in
            "  " + kind.name + String(repeating: " ", count: max(1, 8 - kind.name.count)) + kind.summary
        }
        return (["How commands and replies are framed (docs/DIALECTS.md):"] + rows).joined(separator: "\n")
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
}
