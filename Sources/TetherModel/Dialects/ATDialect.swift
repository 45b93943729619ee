/// The `at` dialect: Hayes / 3GPP AT commands (ITU-T V.250, 3GPP TS 27.007 and 27.005).
///
/// - Commands are sent followed by CR (`AT+CSQ\r`).
/// - A reply is every line up to a final result code: `OK`, `CONNECT[ <text>]`, `ERROR`,
///   `+CME ERROR: <n|text>`, `+CMS ERROR: <n|text>`, `NO CARRIER`, `BUSY`,
///   `NO DIALTONE`, `NO ANSWER`, and ESP-AT's `FAIL` and `SEND FAIL`, plus the vendor
///   codes in ``extraSuccessCodes`` and ``extraErrorCodes`` (`--final-ok`,
///   `--final-error`). All but `OK`, `CONNECT…` and the extra success codes are error
///   replies; a numeric `+CME`/`+CMS` code gets its meaning from `ATErrorCatalog`.
/// - Echo (`ATE1`): a line equal to the command (letter case and surrounding blanks
///   ignored) is dropped, so echo on and echo off read the same. The echo begins the
///   reply (``ReplyMatcher/hasStarted``): the echo of a timed-out command begins its late
///   reply, whichever command is in flight. Empty lines are framing (V.250 heads every
///   response with CR LF) and ignored, also while nothing is pending.
/// - Line noise: bytes at the start of a line that are not printable ASCII (a stray
///   `0xFF` or NUL, e.g. from a modem waking up) are not part of the line: the session
///   reports them as a notification of their own (``leadingNoiseLength(in:)``).
/// - A `+XXX:` line belongs to a reply only when the command has the prefix `+XXX`
///   (`AT+CSQ` → `+CSQ: 23,99`; `AT+CSQ;+CREG?` → both); otherwise no reply takes it
///   and it is a notification (`+CMTI:`, `+CREG:`, `+CLIP:`…), also in the middle of a
///   reply. A timed-out command still claims its own prefix, so its late reply is
///   reported as late.
/// - Registration URCs versus read answers (`AT+CREG?`, `AT+CGREG?`, `AT+CEREG?`): the
///   answer has the shape `<n>,<stat>[,…]`, the URC `<stat>[,"<lac>",…]`; a line whose
///   second field is missing or quoted is taken as the URC.
/// - Lines equal to one of ``standardUnsolicitedLines`` (`RING`, `RDY`, `SMS Ready`…) or
///   starting with one of ``unsolicitedPrefixes`` (`--urc`) are always notifications —
///   except a `+XXX` prefix that the command in flight itself has.
/// - Payloads (``payloadFraming``): ESP-AT's `+IPD,<id>,<len>:` (also `+IPD,<len>:`)
///   and Quectel's `+QIRD: <len>` are built in, more with ``payloadHeaders``
///   (`--payload-header`); a payload is taken by count, never cut at CR or LF. A
///   payload line is information, never a final result code: `OK\r\n` inside one ends
///   nothing. A payload line whose header names a `+XXX` that the command in flight
///   does not have (`+IPD`) is unsolicited; a payload that follows its header line
///   (`+QIRD: 5`, then 5 bytes) belongs to the reply that took the header.
/// - SMS text prompt (3GPP TS 27.005 §3.5.1, §3.5.3: `AT+CMGS=…`, `AT+CMGW=…` in text
///   mode): a command's bytes up to its first CR are the command line; the bytes after
///   that CR are the message text, ended by Ctrl-Z (0x1A; ESC, 0x1B, cancels), which
///   the user gives (`AT+CMGW="+15551230000"\rHello\x1a`). The command line goes out
///   with the terminator; the text is written as it is once the module shows its prompt
///   — `> ` unterminated after CR LF once the line is quiet, or a line that is `>`
///   alone — and the reply goes on to `+CMGS: <mr>`/`+CMGW: <index>` and the final
///   result code. The text's own echo (each of its lines, Ctrl-Z and ESC removed) is
///   dropped. `AT+CMGS=…`/`AT+CMGW=…` without a text ends at the prompt
///   (``Reply/prompt``): the module then waits for the text. A prompt that comes after
///   the command timed out gets no text.
/// - Message bodies: in a `+CMGR:`/`+CMGL:` answer the lines after each header are the
///   message's text (or PDU), information whatever they say — `OK`, `ERROR`, `+CMTI: 1`
///   or an empty line end nothing — unless unsolicited for every command
///   (``isUnsolicited(_:pending:)``: `RING`, a `--urc` prefix). A body of several lines
///   ends at the command's next header, or after a blank line at a final result code
///   or a `+XXX:` line (`Matcher/offerBody(_:)`).
/// - Data mode (V.250 §5.2.3): after a `CONNECT[ <rate>]` final result code every byte is
///   data (``SessionEvent/data(_:)``) until `NO CARRIER`, or `OK` after the escape `+++`
///   (``Session``: ``SessionEvent/commandMode(_:)``).
/// - Not supported: numeric result codes (`ATV0`).
public struct ATDialect: Dialect {
    /// Unsolicited result codes without a `+XXX:` prefix, matched as whole lines.
    public static let standardUnsolicitedLines: Set<String> = [
        "RING", "RDY", "SMS Ready", "Call Ready", "NORMAL POWER DOWN", "POWERED DOWN",
    ]
    /// Final result codes that end a reply successfully (`CONNECT` also with text).
    static let successCodes: Set<String> = ["OK", "CONNECT"]
    /// Final result codes that end a reply with an error (plus `+CME ERROR:`, `+CMS ERROR:`):
    /// V.250's, and ESP-AT's `FAIL` and `SEND FAIL`.
    static let errorCodes: Set<String> = [
        "ERROR", "NO CARRIER", "BUSY", "NO DIALTONE", "NO ANSWER", "FAIL", "SEND FAIL",
    ]
    /// Registration commands whose URC and read answer share a prefix.
    static let registrationPrefixes: Set<String> = ["+CREG", "+CGREG", "+CEREG"]

    /// Extra line prefixes that are always unsolicited (`--urc`, e.g. `^SYSSTART`).
    public var unsolicitedPrefixes: [String]
    /// Lines that are always notifications, or `nil`.
    public var notificationPattern: LinePattern?
    /// The terminator written after each command (CR by V.250).
    public var terminator: Terminator
    /// Vendor final result codes that end a reply successfully (`--final-ok`, e.g.
    /// `SEND OK`): a line equal to one, or starting with one that ends in `:`.
    public var extraSuccessCodes: [String]
    /// Vendor final result codes that end a reply with an error (`--final-error`, e.g.
    /// `ABORTED`), matched like ``extraSuccessCodes``.
    public var extraErrorCodes: [String]
    /// Length-prefixed payload forms besides the built-in ones (`--payload-header`),
    /// tried after them.
    public var payloadHeaders: [PayloadHeaderTemplate]

    /// The built-in payload forms: ESP-AT's `+IPD` and Quectel's `+QIRD`.
    public static let builtInPayloadHeaders = PayloadHeaderTemplate.espAT + [PayloadHeaderTemplate.quectel]

    /// Creates the dialect.
    public init(
        unsolicitedPrefixes: [String] = [], notificationPattern: LinePattern? = nil, terminator: Terminator = .cr,
        extraSuccessCodes: [String] = [], extraErrorCodes: [String] = [], payloadHeaders: [PayloadHeaderTemplate] = []
    ) {
        self.unsolicitedPrefixes = unsolicitedPrefixes
        self.notificationPattern = notificationPattern
        self.terminator = terminator
        self.extraSuccessCodes = extraSuccessCodes
        self.extraErrorCodes = extraErrorCodes
        self.payloadHeaders = payloadHeaders
    }

    public var payloadFraming: (any PayloadFraming)? { templateFraming }

    /// `CONNECT[ <rate>]` (V.250 §6.3.8, `ATD*99#`, `ATO`): the module is in data mode.
    public func entersDataMode(after reply: Reply) -> Bool {
        guard let final = reply.finalResult?.text.trimmingWhitespace() else { return false }
        return final == "CONNECT" || final.hasPrefix("CONNECT ")
    }

    private var templateFraming: TemplatePayloadFraming {
        TemplatePayloadFraming(Self.builtInPayloadHeaders + payloadHeaders)
    }

    public var name: String { Self.kind.name }

    public func expectsReply(to command: String) -> Bool { true }

    public func makeMatcher(for command: String) -> any ReplyMatcher {
        makeMatcher(for: command, bytes: Array(command.utf8))
    }

    public func makeMatcher(for command: String, bytes: [UInt8]) -> any ReplyMatcher {
        Matcher(command: command, bytes: bytes, dialect: self)
    }

    /// The command line, and the bytes after its first CR (an SMS text) or `nil`.
    static func split(_ command: [UInt8]) -> (line: [UInt8], text: [UInt8]?) {
        guard let cr = command.firstIndex(of: 0x0D) else { return (command, nil) }
        return (Array(command[..<cr]), Array(command[(cr + 1)...]))
    }

    /// The lines of the echo an SMS text gets once written at the prompt, each in
    /// ``echoForm(_:)``, blank ones left out.
    static func echo(ofText text: [UInt8]) -> [String] {
        String(decoding: text, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { echoForm(String($0)) }.filter { !$0.isEmpty }
    }

    /// A line of an SMS text as its echo reads: Ctrl-Z and ESC removed, a `> ` prompt
    /// before it removed, blanks trimmed.
    static func echoForm(_ text: String) -> String {
        var form = Substring(text.filter { $0 != "\u{1A}" && $0 != "\u{1B}" }.trimmingWhitespace())
        if form.hasPrefix(">") { form = Substring(form.dropFirst().trimmingWhitespace()) }
        return String(form)
    }

    /// The command line up to its first CR, then the terminator: the text after that CR
    /// waits for the module's prompt (the matcher writes it).
    public func encode(_ command: [UInt8]) -> [UInt8] {
        Self.split(command).line + terminator.bytes
    }

    public func leadingNoiseLength(in line: Line) -> Int {
        line.bytes.prefix { $0 < 0x20 || $0 >= 0x7F }.count
    }

    public func isUnsolicited(_ line: Line, pending: String?) -> Bool {
        if let payloadRange = line.payloadRange {
            // A payload after its header line goes to the reply that took the header.
            guard payloadRange.lowerBound > 0 else { return false }
            let form = templateFraming.template(of: line.bytes[..<payloadRange.lowerBound])
            guard let prefix = form?.prefix, let pending else { return true }
            return !CommandShape(pending).prefixes.contains(prefix)
        }
        if notificationPattern?.matches(line) ?? false { return true }
        let text = line.text.trimmingWhitespace()
        if Self.standardUnsolicitedLines.contains(text) { return true }
        guard unsolicitedPrefixes.contains(where: { text.hasPrefix($0) }) else { return false }
        if let prefix = Self.prefix(of: text), let pending, CommandShape(pending).prefixes.contains(prefix) {
            return false
        }
        return true
    }

    /// The `+XXX` prefix of a line such as `+CSQ: 23,99`, or `nil` (the name must start
    /// with a letter and be followed by `:` or the end of the line).
    static func prefix(of text: String) -> String? {
        guard text.hasPrefix("+") else { return nil }
        let name = text.dropFirst().prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }
        guard let first = name.first, first.isLetter else { return nil }
        let rest = text.dropFirst(1 + name.count)
        guard rest.isEmpty || rest.hasPrefix(":") else { return nil }
        return "+" + name.uppercased()
    }

    /// For a final result code, whether it reports an error; `nil` for any other line.
    func finalResultIsError(_ text: String) -> Bool? {
        func isOne(of codes: [String]) -> Bool {
            codes.contains { $0 == text || ($0.hasSuffix(":") && text.hasPrefix($0)) }
        }
        if Self.successCodes.contains(text) || text.hasPrefix("CONNECT ") || isOne(of: extraSuccessCodes) {
            return false
        }
        if Self.errorCodes.contains(text) || text.hasPrefix("+CME ERROR:") || text.hasPrefix("+CMS ERROR:")
            || isOne(of: extraErrorCodes)
        {
            return true
        }
        return nil
    }

    /// The `+XXX` prefixes a command line has, and which of them are read queries.
    struct CommandShape {
        var prefixes: Set<String> = []
        var reads: Set<String> = []

        init(_ command: String) {
            var body = Substring(command.trimmingWhitespace().uppercased())
            if body.hasPrefix("AT") { body = body.dropFirst(2) }
            for part in body.split(separator: ";") {
                let part = part.trimmingWhitespace()
                guard part.hasPrefix("+") else { continue }
                let name = part.dropFirst().prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }
                guard !name.isEmpty else { continue }
                prefixes.insert("+" + name)
                if part.dropFirst(1 + name.count) == "?" { reads.insert("+" + name) }
            }
        }
    }

    /// The `+XXX` prefixes whose answer lines are each followed by a message body.
    static let messageHeaderPrefixes: Set<String> = ["+CMGR", "+CMGL"]
    /// The set commands that open the SMS text prompt.
    static let textPromptCommands = ["+CMGS=", "+CMGW="]

    /// Where a matcher is in a message answer: outside a body, in a body's text, or
    /// after a blank line in it (held: text or framing, the next line says).
    enum MessageBody {
        case outside
        case text
        case afterBlank(Line)
    }

    private struct Matcher: ReplyMatcher {
        let command: String
        let shape: CommandShape
        let dialect: ATDialect
        /// The SMS text to write at the prompt, or `nil` for a command without one.
        let text: [UInt8]?
        /// Whether the command opens the SMS text prompt (`AT+CMGS=…`, `AT+CMGW=…`).
        let opensPrompt: Bool
        var lines: [Line] = []
        /// Whether the echo came: it begins the reply (``Session`` then gives the lines
        /// after it to this command first, also once it has timed out).
        var sawEcho = false
        /// Whether the text was written at the prompt.
        var sentText = false
        /// The lines of the text's echo still expected, in order.
        var textEcho: [String] = []
        /// Where a message answer (`+CMGR:`/`+CMGL:`) stands (``offerBody(_:)``).
        var body = MessageBody.outside
        var hasStarted: Bool { sawEcho || !lines.isEmpty }
        var linesSoFar: [Line] { lines }

        init(command: String, bytes: [UInt8], dialect: ATDialect) {
            let (line, text) = ATDialect.split(bytes)
            let commandLine = String(decoding: line, as: UTF8.self)
            let command = commandLine.trimmingWhitespace().uppercased()
            self.command = command
            self.shape = CommandShape(commandLine)
            self.dialect = dialect
            self.text = text
            self.opensPrompt = ATDialect.textPromptCommands.contains { command.contains($0) }
        }

        /// `>` or `> `: the SMS text prompt.
        static func isPrompt(_ bytes: some Collection<UInt8>) -> Bool {
            String(decoding: bytes, as: UTF8.self).trimmingWhitespace() == ">"
        }

        /// The space of `> ` when the prompt taken was `>` alone (blanks before it apart).
        func restOfPrompt(after prompt: [UInt8]) -> [UInt8] {
            prompt.last == UInt8(ascii: ">") ? [UInt8(ascii: " ")] : []
        }

        /// Unterminated, the prompt is the last the module sends before it waits for
        /// the text: taken once the line has gone quiet, so a `>` that a read happens to
        /// end at, inside a line that goes on (`>n…`), is no prompt.
        mutating func answer(toPrompt bytes: [UInt8], isQuiet: Bool) -> [UInt8]? {
            guard isQuiet else { return nil }
            return answer(toPrompt: bytes)
        }

        mutating func answer(toPrompt bytes: [UInt8]) -> [UInt8]? {
            guard let text, !sentText, Self.isPrompt(bytes) else { return nil }
            sentText = true
            textEcho = ATDialect.echo(ofText: text)
            return text
        }

        mutating func offerPartial(_ bytes: [UInt8], isQuiet: Bool) -> Reply? {
            guard isQuiet, text == nil, opensPrompt, Self.isPrompt(bytes) else { return nil }
            return Reply(lines: lines, prompt: Line(bytes, ending: .unterminated))
        }

        mutating func offer(_ line: Line) -> MatchStep {
            if let payloadRange = line.payloadRange {
                // Information, never a final result code; a payload alone (after its
                // header line) belongs to a reply that has begun.
                guard payloadRange.lowerBound > 0 || !lines.isEmpty else { return .notMine }
                lines.append(line)
                return .consumed
            }
            if let step = offerBody(line) { return step }
            let text = line.text.trimmingWhitespace()
            if text.isEmpty { return .notMine }
            if text.uppercased() == command {
                sawEcho = true
                return .echo
            }
            if !sentText, Self.isPrompt(line.bytes) {
                if let bytes = answer(toPrompt: line.bytes) { return .write(bytes) }
                if opensPrompt { return .complete(Reply(lines: lines, prompt: line)) }
            }
            if let expected = textEcho.first, ATDialect.echoForm(text) == expected {
                textEcho.removeFirst()
                return .echo
            }
            textEcho = []
            if let isError = dialect.finalResultIsError(text) {
                let reply = Reply(
                    lines: lines, finalResult: line, isError: isError,
                    errorDescription: ATErrorCatalog.description(of: text))
                return .complete(reply)
            }
            if let prefix = ATDialect.prefix(of: text) {
                guard shape.prefixes.contains(prefix) else { return .notMine }
                if shape.reads.contains(prefix), ATDialect.registrationPrefixes.contains(prefix),
                    Self.hasUnsolicitedRegistrationShape(text)
                {
                    return .notMine
                }
                if ATDialect.messageHeaderPrefixes.contains(prefix) { body = .text }
            }
            lines.append(line)
            return .consumed
        }

        /// A line after a message header, while ``body`` is in a body: the message's
        /// text, whatever it reads (`OK`, `ERROR`), over as many lines as it has. The
        /// body ends where the modem's framing says — at the next header of the
        /// command (`+CMGL: 2,…`), or, after a blank line (V.250 heads each code with
        /// CR LF), at a final result code or a `+XXX:` line (an unsolicited code) — and
        /// that line is then read as any other (`nil`). A blank line is held until the
        /// next line says whether it was text (`Hi`, ``, `Bye`) or that framing
        /// (`ATMessageBodyTests`).
        private mutating func offerBody(_ line: Line) -> MatchStep? {
            let blank: Line?
            switch body {
            case .outside: return nil
            case .text: blank = nil
            case .afterBlank(let held): blank = held
            }
            let text = line.text.trimmingWhitespace()
            let prefix = ATDialect.prefix(of: text)
            let isHeader = prefix.map { ATDialect.messageHeaderPrefixes.contains($0) && shape.prefixes.contains($0) }
            if isHeader == true || blank != nil && (prefix != nil || dialect.finalResultIsError(text) != nil) {
                body = .outside
                return nil
            }
            if let blank { lines.append(blank) }
            if text.isEmpty {
                body = .afterBlank(line)
            } else {
                lines.append(line)
                body = .text
            }
            return .consumed
        }

        /// `+CREG: 1` or `+CREG: 1,"00C3","A1B2"` (URC) rather than `+CREG: 2,1` (read answer).
        static func hasUnsolicitedRegistrationShape(_ text: String) -> Bool {
            guard let colon = text.firstIndex(of: ":") else { return true }
            let fields = text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 2 else { return true }
            return fields[1].trimmingWhitespace().hasPrefix("\"")
        }
    }
}

extension ATDialect {
    /// `--dialect at` (modem: lines up to OK/ERROR), for ``DialectRegistry/builtIn``.
    public static let kind = DialectKind(
        name: "at", summary: "modem: lines up to OK/ERROR",
        takes: [
            .terminator, .notificationPattern, .unsolicitedPrefixes, .extraSuccessCodes, .extraErrorCodes,
            .payloadHeaders,
        ]
    ) { settings in
        ATDialect(
            unsolicitedPrefixes: settings.unsolicitedPrefixes, notificationPattern: settings.notificationPattern,
            terminator: settings.terminator ?? .cr, extraSuccessCodes: settings.extraSuccessCodes,
            extraErrorCodes: settings.extraErrorCodes, payloadHeaders: settings.payloadHeaders)
    }
}
