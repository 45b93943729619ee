import FoundationEssentials

/// The `prompt` dialect: a console that answers until it prints its prompt again
/// (a bootloader such as U-Boot, `=> `; a shell).
///
/// - Commands are sent followed by CR (``terminator``).
/// - The reply is every line the console prints after the command, up to its
///   ``prompt``, which arrives without a line terminator. The prompt is matched on the
///   unterminated bytes (control sequences removed), once the command's echo (or a line
///   of output) has been seen: bytes that are exactly the prompt end the reply at once
///   (a prompt counts at the start of a line, so `a => b` inside output never does);
///   bytes that end in the prompt after other text (`user@box:~$ ` for the prompt `$ `)
///   end it once no byte has followed for ``Session/partialQuietPeriod`` — that whole
///   line is the prompt, never a reply line (it is the reply's ``Reply/prompt``). A console that neither echoes nor prints
///   anything for a command therefore times out.
/// - The echo is never part of a reply: a line equal to the command, also when the
///   prompt precedes it (`> ver`, `=> ver` — a prompt left in the buffer joins the
///   echoed line).
/// - Output lines are kept in order; empty lines between them are kept, empty lines
///   before the first and after the last are dropped (a line made only of control
///   sequences is empty).
/// - A reply with a line matching ``errorPattern`` is an error reply; a line matching
///   ``notificationPattern`` (e.g. kernel log lines) is always a notification.
public struct PromptDialect: Dialect {
    /// U-Boot's default prompt.
    public static let defaultPrompt = "=> "

    /// The prompt, exactly as the console prints it.
    public var prompt: String
    /// The terminator written after each command.
    public var terminator: Terminator
    /// Lines that are always notifications, or `nil`.
    public var notificationPattern: LinePattern?
    /// Replies that are errors, or `nil` for none.
    public var errorPattern: LinePattern?

    /// Creates the dialect.
    public init(
        prompt: String = PromptDialect.defaultPrompt, terminator: Terminator = .cr,
        notificationPattern: LinePattern? = nil, errorPattern: LinePattern? = nil
    ) {
        self.prompt = prompt
        self.terminator = terminator
        self.notificationPattern = notificationPattern
        self.errorPattern = errorPattern
    }

    public var name: String { Self.kind.name }

    public func expectsReply(to command: String) -> Bool { true }

    public func makeMatcher(for command: String) -> any ReplyMatcher {
        Matcher(
            command: command.trimmingWhitespace(), prompt: Array(prompt.utf8),
            errorPattern: errorPattern)
    }

    public func isUnsolicited(_ line: Line, pending: String?) -> Bool {
        notificationPattern?.matches(line) ?? false
    }

    private struct Matcher: ReplyMatcher {
        let command: String
        let prompt: [UInt8]
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

        mutating func offerPartial(_ bytes: [UInt8], isQuiet: Bool) -> Reply? {
            guard hasStarted, bytes.count >= prompt.count, bytes.suffix(prompt.count).elementsEqual(prompt),
                isQuiet || bytes.count == prompt.count
            else {
                return nil
            }
            let isError = errorPattern.map { pattern in lines.contains { pattern.matches($0) } } ?? false
            return Reply(lines: lines, isError: isError, prompt: Line(bytes, ending: .unterminated))
        }

        /// The command as typed, possibly after the prompt (`> ver`).
        func isEcho(_ line: Line) -> Bool {
            let text = line.text.trimmingWhitespace()
            guard text.hasSuffix(command) else { return false }
            let before = text.dropLast(command.count).trimmingWhitespace()
            let promptText = String(decoding: prompt, as: UTF8.self).trimmingWhitespace()
            return before.isEmpty || (!promptText.isEmpty && before.hasSuffix(promptText))
        }
    }
}

extension PromptDialect {
    /// `--dialect prompt` (console: output up to its prompt), for ``DialectRegistry/builtIn``.
    public static let kind = DialectKind(
        name: "prompt", summary: "console: output up to its prompt",
        takes: [.terminator, .notificationPattern, .prompt, .errorPattern]
    ) { settings in
        PromptDialect(
            prompt: settings.prompt ?? PromptDialect.defaultPrompt, terminator: settings.terminator ?? .cr,
            notificationPattern: settings.notificationPattern, errorPattern: settings.errorPattern)
    }
}
