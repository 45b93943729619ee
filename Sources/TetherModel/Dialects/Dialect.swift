/// How one kind of device frames commands and replies: what goes on the wire for a
/// command, which received lines answer it, what is an error and what is
/// unsolicited.
///
/// A dialect is a value; for each request it makes a ``ReplyMatcher`` that is offered
/// the received lines one at a time. The ``Session`` decides the order in which
/// matchers see a line (see ``Session``) and turns every line that no matcher takes
/// into a notification.
public protocol Dialect: Sendable {
    /// The dialect's name as used by `--dialect` (`line`, `at`, `scpi`, `prompt`, `nmea`).
    var name: String { get }

    /// The line terminator written after each command.
    var terminator: Terminator { get }

    /// The bytes to write for a command whose exact bytes are `command` (no
    /// terminator), terminator included (e.g. `AT\r`). The default is `command`
    /// unchanged — every byte 0x00–0xFF as it is — followed by ``terminator``.
    func encode(_ command: [UInt8]) -> [UInt8]

    /// Whether `command` gets a reply. A command that gets none completes as soon as
    /// it is written (e.g. a SCPI command without `?`).
    func expectsReply(to command: String) -> Bool

    /// A fresh matcher for the reply to `command`.
    func makeMatcher(for command: String) -> any ReplyMatcher

    /// A fresh matcher for the reply to the command whose exact bytes are `bytes`
    /// (`command` is them decoded as UTF-8). The default is ``makeMatcher(for:)``;
    /// `at` keeps the exact bytes of an SMS text (``ATDialect``).
    func makeMatcher(for command: String, bytes: [UInt8]) -> any ReplyMatcher

    /// A fresh matcher for the reply to the command whose exact bytes are `bytes`, on a
    /// device whose last reply ended at the prompt `lastPrompt` (``Reply/prompt``, `nil`
    /// when none has): what the console showed of itself (``PromptDialect``: its prompt
    /// alone on a line). The default is ``Dialect/makeMatcher(for:bytes:)``.
    func makeMatcher(for command: String, bytes: [UInt8], lastPrompt: Line?) -> any ReplyMatcher

    /// Whether `line` is unsolicited whatever is pending — e.g. an AT unsolicited
    /// result code such as `RING` arriving inside a reply. Such lines are never
    /// offered to matchers. `pending` is the command in flight, if any.
    func isUnsolicited(_ line: Line, pending: String?) -> Bool

    /// Whether a reply carries nothing that ties it to its command — no echo it waits
    /// for, no final result code, no prompt — so a stray line can be taken for it
    /// (`line`, `scpi`). The session then lets each reply settle before the next
    /// command (see ``Session``). The default is `false`.
    var repliesAreUnmarked: Bool { get }

    /// How long the session listens before the first request, when the device is known
    /// to speak unasked (`--listen`, a device file's `listen`, a simulator profile of a
    /// device with unnamed notifications): replies then settle from the first one, and
    /// what the device says meanwhile is learned (``Session``). `nil` (the default):
    /// nothing is known, so replies are shown as soon as they are complete until the
    /// device shows that it speaks unasked.
    var listenPeriod: Duration? { get }

    /// How long the session listens before the first request when nothing is known of
    /// what the device says unasked, without settling replies from the first: `line`
    /// told nothing (no notification pattern, no `--no-unsolicited`, no `--listen`),
    /// whose devices often print readings or a banner unasked, so their shape is
    /// learned before the first reply is waited for (``Session``). `nil` (the default):
    /// no such listen — `scpi`, whose IEEE 488.2 devices answer only when asked.
    var openingListen: Duration? { get }

    /// How many bytes at the start of `line` are line noise rather than text (e.g. a
    /// stray `0xFF` or NUL glued to an AT echo); the session reports them as a
    /// notification of their own and matches the rest. The default is 0.
    func leadingNoiseLength(in line: Line) -> Int

    /// How the dialect's binary payloads are framed (``PayloadFraming``: `scpi`'s
    /// IEEE 488.2 blocks, `at`'s `+IPD`/`+QIRD` payloads), or `nil` for lines only. The
    /// ``Session`` hands it to its ``LineFramer`` once. The default is `nil`.
    var payloadFraming: (any PayloadFraming)? { get }

    /// The named values the dialect reads in a received line (a notification), or why
    /// it is damaged; `nil` when the dialect reads nothing of its own there (the
    /// Presenter then reads `name=value` fields). The default is `nil`; `nmea` reads
    /// its sentences (``NMEASentence``).
    func fields(of line: Line) -> LineFields?

    /// Whether the device is in data mode once `reply` completed: every byte is then
    /// data until it is back in command mode (``Session``; `at`: a `CONNECT` final
    /// result code). The default is `false`.
    func entersDataMode(after reply: Reply) -> Bool

    /// How long, after a timeout, the next command waits for the sign that the device
    /// is ready again — its prompt completing the timed-out command's late reply
    /// (``PromptDialect``) — before it is sent anyway; `nil` for a device that shows no
    /// such sign, whose next command waits for the line to go quiet (``Session``). The
    /// default is `nil`.
    var readinessWait: Duration? { get }
}

/// Reads the reply to one command from the lines offered to it.
public protocol ReplyMatcher: Sendable {
    /// Offers one received line. Return ``MatchStep/notMine`` to leave the line to
    /// others (it then becomes a notification if nobody takes it).
    mutating func offer(_ line: Line) -> MatchStep

    /// Offers the unterminated bytes at the end of the input (a prompt such as `=> `
    /// never ends in a terminator), control sequences removed. Return a reply to
    /// complete on them; the bytes are then consumed. The default returns `nil`.
    ///
    /// - Parameters:
    ///   - bytes: the bytes after the last line end, control sequences removed.
    ///   - isQuiet: `false` when the bytes have just arrived; `true` when no
    ///     byte has followed them for ``Session/partialQuietPeriod``.
    mutating func offerPartial(_ bytes: [UInt8], isQuiet: Bool) -> Reply?

    /// Whether the matcher has taken lines but not completed — it then sees
    /// following lines before other matchers do.
    var hasStarted: Bool { get }

    /// The reply lines taken so far, reported if the request times out before the
    /// reply is complete. The default is none.
    var linesSoFar: [Line] { get }

    /// Offers the unterminated bytes at the end of the input, control sequences
    /// removed, before ``offerPartial(_:isQuiet:)``: return bytes to write as they are
    /// (no terminator) in answer to a prompt the reply goes through — `at`'s SMS text
    /// at `> ` — and the prompt is consumed; the reply goes on. Asked of the request
    /// in flight only. The default returns `nil`.
    ///
    /// - Parameters:
    ///   - bytes: the bytes after the last line end, control sequences removed.
    ///   - isQuiet: as for ``offerPartial(_:isQuiet:)``.
    mutating func answer(toPrompt bytes: [UInt8], isQuiet: Bool) -> [UInt8]?

    /// Whether a prompt may end any text (`PromptDialect`: `=> ` after output with no
    /// line end), so the unterminated bytes are offered even when they go on with a line
    /// cut as overlong. Otherwise a prompt begins a line (`at`'s `> `), and the piece
    /// after an overlong cut is never offered. The default is `false`.
    var findsPromptAfterText: Bool { get }

    /// The bytes still due after a prompt taken from the unterminated bytes `prompt`
    /// (by ``offerPartial(_:isQuiet:)`` or ``answer(toPrompt:isQuiet:)``): when the next bytes
    /// read begin with them, they are part of that prompt and dropped. `at`'s `> ` may
    /// arrive as `>` then ` ` (3GPP TS 27.005 §3.5.1: the prompt is `>` and a space).
    /// The default is none.
    func restOfPrompt(after prompt: [UInt8]) -> [UInt8]
}

extension ReplyMatcher {
    public var linesSoFar: [Line] { [] }

    public mutating func answer(toPrompt bytes: [UInt8], isQuiet: Bool) -> [UInt8]? { nil }

    public var findsPromptAfterText: Bool { false }

    public func restOfPrompt(after prompt: [UInt8]) -> [UInt8] { [] }

    public mutating func offerPartial(_ bytes: [UInt8], isQuiet: Bool) -> Reply? { nil }
}

/// What a ``ReplyMatcher`` did with a line.
public enum MatchStep: Sendable, Equatable {
    /// Not part of this reply.
    case notMine
    /// The device's echo of the command; dropped.
    case echo
    /// A line of the reply; more are expected.
    case consumed
    /// A line of the reply; the rest must be asked for with `command` (e.g. SCPI
    /// `SYST:ERR?` until the error queue is empty). The session writes the dialect's
    /// encoding of `command` while the request is in flight; for a request that has
    /// timed out it writes nothing and reports `soFar` as the late reply instead.
    case ask(String, soFar: Reply)
    /// A line of the reply that is a prompt for more input: the session writes `bytes`
    /// as they are (no terminator; `at`'s SMS text after a bare `>` line) while the
    /// request is in flight, and nothing for a request that has timed out. More lines
    /// are expected.
    case write([UInt8])
    /// The reply is complete.
    case complete(Reply)
}

/// A device's complete answer to one command.
public struct Reply: Sendable, Equatable {
    /// The information lines, in order (for AT: without the final result code).
    public var lines: [Line]
    /// The line that ended the reply when it is not itself information — an AT
    /// final result code (`OK`, `+CME ERROR: 10`) — or `nil`.
    public var finalResult: Line?
    /// Whether the device reported an error (an `ERR…` line, `ERROR`, `+CME ERROR`…).
    public var isError: Bool
    /// What the error means, when the dialect knows — e.g. `SIM not inserted` for
    /// `+CME ERROR: 10` (3GPP TS 27.007) — or `nil`.
    public var errorDescription: String?
    /// Whether the reply may not be this command's: a line nobody expected came right
    /// after it, or it may have been an earlier, timed-out command's late reply (see
    /// ``Session``).
    public var isInDoubt: Bool
    /// The prompt that ended the reply, without a line end and with its control
    /// sequences removed (``PromptDialect``: `=> `, `root@box:~# `), or `nil`. It is no
    /// reply line; scripts may still wait for it (docs/SCRIPTING.md).
    public var prompt: Line?

    /// Creates a reply.
    public init(
        lines: [Line], finalResult: Line? = nil, isError: Bool = false, errorDescription: String? = nil,
        isInDoubt: Bool = false, prompt: Line? = nil
    ) {
        self.lines = lines
        self.finalResult = finalResult
        self.isError = isError
        self.errorDescription = errorDescription
        self.isInDoubt = isInDoubt
        self.prompt = prompt
    }
}

extension Dialect {
    public func encode(_ command: [UInt8]) -> [UInt8] { command + terminator.bytes }

    public func makeMatcher(for command: String, bytes: [UInt8]) -> any ReplyMatcher { makeMatcher(for: command) }

    public func makeMatcher(for command: String, bytes: [UInt8], lastPrompt: Line?) -> any ReplyMatcher {
        makeMatcher(for: command, bytes: bytes)
    }

    /// The bytes to write for `command` (its UTF-8 bytes), as ``encode(_:)-([UInt8])`` does.
    public func encode(_ command: String) -> [UInt8] { encode(Array(command.utf8)) }

    public var repliesAreUnmarked: Bool { false }

    public var listenPeriod: Duration? { nil }

    public var openingListen: Duration? { nil }

    public func leadingNoiseLength(in line: Line) -> Int { 0 }

    public var payloadFraming: (any PayloadFraming)? { nil }

    public func fields(of line: Line) -> LineFields? { nil }

    public func entersDataMode(after reply: Reply) -> Bool { false }

    public var readinessWait: Duration? { nil }
}
