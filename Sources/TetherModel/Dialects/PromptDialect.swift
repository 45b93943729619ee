/// The `prompt` dialect: a console that answers until it prints its prompt again
/// (a bootloader such as U-Boot, `=> `; a shell).
///
/// - Commands are sent followed by CR (``terminator``).
/// - The reply is every line the console prints after the command, up to its
///   prompt, which arrives without a line terminator: ``prompt`` exactly, or any text
///   that ``promptPattern`` matches at its end. The prompt is matched on the
///   unterminated bytes (control sequences removed), once the command's echo (or a line
///   of output) has been seen, and **only once no byte has followed them for**
///   ``Session/partialQuietPeriod``: a prompt has no line end, so only what follows
///   tells it from an output line that begins with the same text (`# comment` in a
///   file a shell prints, `=> ` at the start of a U-Boot line) — whatever the reads,
///   such a line never ends a reply. The whole unterminated line is the prompt
///   (`user@box:~$ ` for the prompt `$ `), never a reply line (it is the reply's
///   ``Reply/prompt``). A console that neither echoes nor prints anything for a
///   command therefore times out.
/// - After a timeout the next command waits for the console's prompt
///   (``readinessWait``, ``Session``): a console busy with the timed-out command may
///   read and discard what is typed meanwhile (U-Boot's `sleep`).
/// - The echo is never part of a reply: a line equal to the command, also when the
///   prompt precedes it (`> ver`, `=> ver`, `root@box:~# ver` for a ``promptPattern``
///   — a prompt left in the buffer joins the echoed line).
/// - Output lines are kept in order; empty lines between them are kept, empty lines
///   before the first and after the last are dropped (a line made only of control
///   sequences is empty).
/// - A reply with a line matching ``errorPattern`` is an error reply; a line matching
///   ``notificationPattern`` (e.g. kernel log lines) is always a notification.
public struct PromptDialect: Dialect {
    /// U-Boot's default prompt.
    public static let defaultPrompt = "=> "
    /// How long the next command waits for the prompt after a timeout by default: 10 s.
    public static let defaultReadinessWait = Duration.seconds(10)

    /// The prompt, exactly as the console prints it; unused when ``promptPattern`` is set.
    public var prompt: String
    /// The prompt as a regular expression (``LinePattern``), for a prompt that changes
    /// (`root@box:~# `, `root@box:/tmp# `), or `nil` for ``prompt``: the unterminated
    /// text is a prompt when the pattern matches it at its end (`^[a-z]+@[^:]+:[^#$]*[#$] $`,
    /// or `[#$] $` for any text ending so).
    public let promptPattern: LinePattern?
    /// ``promptPattern`` matching only where a match ends the text: `(?:SOURCE)$`.
    private let endAnchoredPattern: LinePattern?
    /// How long, after a timeout, the next command waits for the console's prompt before
    /// it is sent anyway (``Dialect/readinessWait``).
    public var readinessWait: Duration?
    /// The terminator written after each command.
    public var terminator: Terminator
    /// Lines that are always notifications, or `nil`.
    public var notificationPattern: LinePattern?
    /// Replies that are errors, or `nil` for none.
    public var errorPattern: LinePattern?

    /// Creates the dialect.
    ///
    /// - Parameters:
    ///   - prompt: the prompt's exact text, no CR or LF.
    ///   - promptPattern: the prompt as a regular expression, used instead of `prompt`.
    ///   - readinessWait: after a timeout, how long the next command waits for the
    ///     prompt (default 10 s); `nil`: it waits for quiet only, as other dialects do.
    public init(
        prompt: String = PromptDialect.defaultPrompt, promptPattern: LinePattern? = nil, terminator: Terminator = .cr,
        notificationPattern: LinePattern? = nil, errorPattern: LinePattern? = nil,
        readinessWait: Duration? = PromptDialect.defaultReadinessWait
    ) {
        self.prompt = prompt
        self.promptPattern = promptPattern
        self.endAnchoredPattern = promptPattern.map { (try? LinePattern("(?:\($0.source))$")) ?? $0 }
        self.readinessWait = readinessWait
        self.terminator = terminator
        self.notificationPattern = notificationPattern
        self.errorPattern = errorPattern
    }

    public var name: String { Self.kind.name }

    public func expectsReply(to command: String) -> Bool { true }

    public func makeMatcher(for command: String) -> any ReplyMatcher {
        Matcher(
            command: command.trimmingWhitespace(), prompt: Array(prompt.utf8), promptPattern: endAnchoredPattern,
            errorPattern: errorPattern)
    }

    public func isUnsolicited(_ line: Line, pending: String?) -> Bool {
        notificationPattern?.matches(line) ?? false
    }

    private struct Matcher: ReplyMatcher {
        let command: String
        let prompt: [UInt8]
        let promptPattern: LinePattern?
        let errorPattern: LinePattern?
        var sawEcho = false
        var lines: [Line] = []
        var heldEmptyLines: [Line] = []
        var hasStarted: Bool { sawEcho || !lines.isEmpty }
        var linesSoFar: [Line] { lines }

        mutating func offer(_ line: Line) -> MatchStep {
            if !sawEcho && lines.isEmpty && isEcho(line) {
                sawEcho = true
                return .echo
            }
            if line.isEmpty {
                if !lines.isEmpty { heldEmptyLines.append(line) }
                return .consumed
            }
            lines += heldEmptyLines
            heldEmptyLines.removeAll()
            lines.append(line)
            return .consumed
        }

        var findsPromptAfterText: Bool { true }

        mutating func offerPartial(_ bytes: [UInt8], isQuiet: Bool) -> Reply? {
            // Only quiet tells a prompt from the start of an output line (`# comment`).
            guard hasStarted, isQuiet, endsInPrompt(bytes) else { return nil }
            let isError = errorPattern.map { pattern in lines.contains { pattern.matches($0) } } ?? false
            return Reply(lines: lines, isError: isError, prompt: Line(bytes, ending: .unterminated))
        }

        /// Whether `bytes` end in the prompt.
        func endsInPrompt(_ bytes: [UInt8]) -> Bool {
            if let promptPattern { return promptPattern.matches(String(decoding: bytes, as: UTF8.self)) }
            return bytes.count >= prompt.count && bytes.suffix(prompt.count).elementsEqual(prompt)
        }

        /// The command as typed, possibly after the prompt (`> ver`).
        func isEcho(_ line: Line) -> Bool {
            let text = line.text.trimmingWhitespace()
            guard text.hasSuffix(command) else { return false }
            let before = text.dropLast(command.count)
            if before.trimmingWhitespace().isEmpty { return true }
            if promptPattern != nil { return endsInPrompt(Array(before.utf8)) }
            let promptText = String(decoding: prompt, as: UTF8.self).trimmingWhitespace()
            return !promptText.isEmpty && before.trimmingWhitespace().hasSuffix(promptText)
        }
    }
}

extension PromptDialect {
    /// `--dialect prompt` (console: output up to its prompt), for ``DialectRegistry/builtIn``.
    public static let kind = DialectKind(
        name: "prompt", summary: "console: output up to its prompt",
        takes: [.terminator, .notificationPattern, .prompt, .promptPattern, .errorPattern, .readinessWait]
    ) { settings in
        PromptDialect(
            prompt: settings.prompt ?? PromptDialect.defaultPrompt, promptPattern: settings.promptPattern,
            terminator: settings.terminator ?? .cr, notificationPattern: settings.notificationPattern,
            errorPattern: settings.errorPattern, readinessWait: settings.readinessWait ?? Self.defaultReadinessWait)
    }
}
