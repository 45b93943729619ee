/// The `prompt` dialect: a console that answers until it prints its prompt again
/// (a bootloader such as U-Boot, `=> `; a shell).
///
/// - Commands are sent followed by CR (``terminator``).
/// - The reply is every line the console prints after the command, up to its
///   prompt, which arrives without a line terminator: ``prompt`` exactly, or any text
///   that ``promptPattern`` matches at its end. The prompt is matched on the
///   unterminated bytes (control sequences removed), once the command's echo (or, on a
///   console that does not echo, a line of output) has been seen, and **only once no
///   byte has followed them for** ``Session/partialQuietPeriod``: a prompt has no line
///   end, so only what follows tells it from an output line that begins with the same
///   text (`# comment` in a file a shell prints, `=> ` at the start of a U-Boot line) —
///   whatever the reads, such a line never ends a reply. The whole unterminated line is
///   the prompt (`user@box:~$ ` for the prompt `$ `), never a reply line (it is the
///   reply's ``Reply/prompt``). A console that prints nothing for a command and does not
///   echo it therefore times out.
/// - **On a console that echoes (``echoes``), the reply starts after the command's
///   echo**: a line before it is earlier output (the rest of a transfer's summary, a boot
///   log printed after the port opened), left to the session as a notification, and a
///   prompt before it ends that earlier output, not this reply. A console that does not
///   echo (`echoes: false`, `--no-echo`): the reply is every line after the command is
///   written.
/// - **A console that has shown its prompt alone on a line** — the prompt that
///   ended its last reply was the whole line, or the command's echo follows the prompt
///   alone (`=> crc32 …`) — is not prompted by the same text after other text on a line:
///   U-Boot's `crc32` prints `CRC32 for 42000000 ... 42018fff ==> `, computes for as long
///   as the region takes, then prints the CRC. No quiet tells that `=> ` from a prompt
///   (the pause is the computation), so only a line that is the prompt alone ends the
///   reply there. Elsewhere a line ending in the prompt after other text still ends it
///   (`user@box:~$ ` for the prompt `$ `). ``promptPattern`` is matched as it is.
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
    /// Whether the console echoes what is typed, as U-Boot, shells and MicroPython's REPL
    /// do (the default): a reply then starts after the command's echo.
    public var echoes: Bool

    /// Creates the dialect.
    ///
    /// - Parameters:
    ///   - prompt: the prompt's exact text, no CR or LF.
    ///   - promptPattern: the prompt as a regular expression, used instead of `prompt`.
    ///   - terminator: written after each command (default CR).
    ///   - notificationPattern: lines that are always notifications, or `nil`.
    ///   - errorPattern: replies that are errors, or `nil` for none.
    ///   - readinessWait: after a timeout, how long the next command waits for the
    ///     prompt (default 10 s); `nil`: it waits for quiet only, as other dialects do.
    ///   - echoes: whether the console echoes what is typed (a reply starts after the echo).
    public init(
        prompt: String = PromptDialect.defaultPrompt, promptPattern: LinePattern? = nil, terminator: Terminator = .cr,
        notificationPattern: LinePattern? = nil, errorPattern: LinePattern? = nil,
        readinessWait: Duration? = PromptDialect.defaultReadinessWait, echoes: Bool = true
    ) {
        self.prompt = prompt
        self.promptPattern = promptPattern
        self.endAnchoredPattern = promptPattern.map { (try? LinePattern("(?:\($0.source))$")) ?? $0 }
        self.readinessWait = readinessWait
        self.terminator = terminator
        self.notificationPattern = notificationPattern
        self.errorPattern = errorPattern
        self.echoes = echoes
    }

    public var name: String { Self.kind.name }

    public func expectsReply(to command: String) -> Bool { true }

    public func makeMatcher(for command: String) -> any ReplyMatcher {
        makeMatcher(for: command, bytes: Array(command.utf8), lastPrompt: nil)
    }

    public func makeMatcher(for command: String, bytes: [UInt8], lastPrompt: Line?) -> any ReplyMatcher {
        let prompt = Array(prompt.utf8)
        return Matcher(
            command: command.trimmingWhitespace(), prompt: prompt, promptPattern: endAnchoredPattern,
            errorPattern: errorPattern, echoes: echoes, showsPromptAlone: lastPrompt?.bytes == prompt)
    }

    public func isUnsolicited(_ line: Line, pending: String?) -> Bool {
        notificationPattern?.matches(line) ?? false
    }

    private struct Matcher: ReplyMatcher {
        let command: String
        let prompt: [UInt8]
        let promptPattern: LinePattern?
        let errorPattern: LinePattern?
        let echoes: Bool
        /// Whether the console has shown ``prompt`` alone on a line: the same text after
        /// other text on a line is then output, not the prompt.
        var showsPromptAlone: Bool
        var sawEcho = false
        var lines: [Line] = []
        var heldEmptyLines: [Line] = []
        /// How the line before ended: an empty line ended by CR after one ended by LF is
        /// the second half of a LF CR line end (`a\n\rb`), framing, not a blank line.
        var previousTerminator: Terminator?
        var hasStarted: Bool { sawEcho || !lines.isEmpty }
        var linesSoFar: [Line] { lines }

        mutating func offer(_ line: Line) -> MatchStep {
            let endsLFCR = line.isEmpty && line.terminator == .cr && previousTerminator == .lf
            previousTerminator = line.terminator
            if !sawEcho && lines.isEmpty, let before = textBeforeEcho(in: line) {
                sawEcho = true
                if promptPattern == nil && before == promptText { showsPromptAlone = true }
                return .echo
            }
            // Before the echo: earlier output, not this reply.
            if echoes && !sawEcho { return .notMine }
            if line.isEmpty {
                if !lines.isEmpty && !endsLFCR { heldEmptyLines.append(line) }
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
            if showsPromptAlone { return bytes == prompt }
            return bytes.count >= prompt.count && bytes.suffix(prompt.count).elementsEqual(prompt)
        }

        /// The prompt's text without its surrounding whitespace (`=>`).
        var promptText: String { String(decoding: prompt, as: UTF8.self).trimmingWhitespace() }

        /// When `line` is the command as typed, possibly after the prompt (`> ver`), the
        /// text before the command, without its surrounding whitespace; otherwise `nil`.
        func textBeforeEcho(in line: Line) -> String? {
            let text = line.text.trimmingWhitespace()
            guard text.hasSuffix(command) else { return nil }
            let untrimmed = text.dropLast(command.count)
            let before = untrimmed.trimmingWhitespace()
            if before.isEmpty { return before }
            if promptPattern != nil { return endsInPrompt(Array(untrimmed.utf8)) ? before : nil }
            return !promptText.isEmpty && before.hasSuffix(promptText) ? before : nil
        }
    }
}

extension PromptDialect {
    /// `--dialect prompt` (console: output up to its prompt), for ``DialectRegistry/builtIn``.
    public static let kind = DialectKind(
        name: "prompt", summary: "console: output up to its prompt",
        takes: [
            .terminator, .notificationPattern, .prompt, .promptPattern, .errorPattern, .readinessWait, .doesNotEcho,
        ]
    ) { settings in
        PromptDialect(
            prompt: settings.prompt ?? PromptDialect.defaultPrompt, promptPattern: settings.promptPattern,
            terminator: settings.terminator ?? .cr, notificationPattern: settings.notificationPattern,
            errorPattern: settings.errorPattern, readinessWait: settings.readinessWait ?? Self.defaultReadinessWait,
            echoes: !settings.doesNotEcho)
    }
}
