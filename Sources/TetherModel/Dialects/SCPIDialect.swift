/// The `scpi` dialect: instruments following IEEE 488.2 and SCPI-99.
///
/// - Commands are sent followed by LF (``terminator``).
/// - A command line is split at `;` (outside quotes) into program units; each unit
///   with a `?` is a query. The line expects one answer per query: `MEAS:VOLT?;CURR?`
///   expects two. IEEE 488.2 joins the answers with `;` on one line (`5.0;1.0`); some
///   devices send one line each — both are accepted, since every `;`-separated unit of
///   a received line counts as one answer. The reply's lines are the lines as received.
/// - A line with no query gets no reply and completes once written.
/// - With ``checksErrors`` (`--check-errors`) every command is followed by
///   `SYST:ERR?` (after a command: in the same write; after a query: once its answers
///   are in), asked again until the instrument answers an entry whose leading integer
///   is 0 (`0,"No error"`, `+0,"No error"`, `0 No Error`, `+0 NO ERROR`), at most
///   ``maximumErrorQueries`` times. Several queued errors are all reported, in order. Each error entry is
///   appended to the reply's lines and makes the reply an error reply; an answer that
///   is not an error entry ends the check as an error too.
/// - A received line equal to the command is an echo and dropped.
/// - Arbitrary block data (IEEE 488.2 `#42000` and 2000 bytes, `#0` indefinite) is taken
///   by count, never cut at CR or LF (``ArbitraryBlockFraming``); the line holding it is
///   one answer, its `;` counted outside the block.
public struct SCPIDialect: Dialect {
    /// The error queue query (`SYSTem:ERRor[:NEXT]?`).
    public static let errorQuery = "SYST:ERR?"
    /// The most `SYST:ERR?` queries after one command (a device whose queue never
    /// empties cannot keep tether asking forever).
    public static let maximumErrorQueries = 32

    /// The terminator written after each command.
    public var terminator: Terminator
    /// Whether to read the error queue after every command.
    public var checksErrors: Bool
    /// Lines that are always notifications, or `nil`.
    public var notificationPattern: LinePattern?
    /// How long to listen before the first request, for a device known to speak
    /// unasked (replies then settle from the first, see ``Session``), or `nil`.
    public var listenPeriod: Duration?

    /// Creates the dialect.
    public init(
        terminator: Terminator = .lf, checksErrors: Bool = false, notificationPattern: LinePattern? = nil,
        listenPeriod: Duration? = nil
    ) {
        self.terminator = terminator
        self.checksErrors = checksErrors
        self.notificationPattern = notificationPattern
        self.listenPeriod = listenPeriod
    }

    public var name: String { Self.kind.name }

    public func encode(_ command: [UInt8]) -> [UInt8] {
        var bytes = command + terminator.bytes
        if checksErrors && Self.queryCount(in: String(decoding: command, as: UTF8.self)) == 0 {
            bytes += Array(Self.errorQuery.utf8) + terminator.bytes
        }
        return bytes
    }

    /// A reply line carries nothing tying it to its command: each reply settles
    /// before the next command (see ``Session``).
    public var repliesAreUnmarked: Bool { true }

    public func expectsReply(to command: String) -> Bool {
        checksErrors || Self.queryCount(in: command) > 0
    }

    public func makeMatcher(for command: String) -> any ReplyMatcher {
        Matcher(command: Array(command.utf8), expectedAnswers: Self.queryCount(in: command), checksErrors: checksErrors)
    }

    public func isUnsolicited(_ line: Line, pending: String?) -> Bool {
        notificationPattern?.matches(line.textOutsidePayload) ?? false
    }

    public var payloadFraming: (any PayloadFraming)? { ArbitraryBlockFraming() }

    /// How many of the `;`-joined units of `command` are queries.
    public static func queryCount(in command: String) -> Int {
        units(of: command).filter { $0.contains("?") }.count
    }

    /// `text` split at `;` outside single or double quotes; quoted text is left out of
    /// each unit (so a `?` or `;` inside a string does not count).
    static func units(of text: String) -> [String] {
        var units = [""]
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == ";" {
                units.append("")
            } else {
                units[units.count - 1].append(character)
            }
        }
        return units
    }

    /// The code of an error queue entry, or `nil` when the line is not one: the integer
    /// it starts with (sign allowed), followed by a comma, a blank or the end —
    /// `-113,"Undefined header"`, `+0,"No error"`, `0 No Error`, `+0 NO ERROR`, `0`.
    static func errorCode(in text: String) -> Int? {
        let entry = text.drop { $0 == " " || $0 == "\t" }
        let sign = entry.prefix { $0 == "+" || $0 == "-" }
        guard sign.count <= 1 else { return nil }
        let digits = entry.dropFirst(sign.count).prefix { $0.isASCII && $0.isNumber }
        let rest = entry.dropFirst(sign.count + digits.count)
        guard !digits.isEmpty, rest.isEmpty || rest.first == "," || rest.first == " " || rest.first == "\t" else {
            return nil
        }
        return Int(sign == "-" ? "-" + digits : String(digits))
    }

    private struct Matcher: ReplyMatcher {
        let command: [UInt8]
        let expectedAnswers: Int
        let checksErrors: Bool
        var answers = 0
        var lines: [Line] = []
        var errors: [Line] = []
        var hasStarted: Bool { answers > 0 || !errors.isEmpty }

        var reply: Reply { Reply(lines: lines + errors, isError: !errors.isEmpty) }
        var linesSoFar: [Line] { lines + errors }

        mutating func offer(_ line: Line) -> MatchStep {
            if line.isEmpty { return .notMine }
            if !hasStarted && line.bytes == command { return .echo }
            if answers < expectedAnswers {
                lines.append(line)
                answers += SCPIDialect.units(of: line.textOutsidePayload).count
                if answers < expectedAnswers { return .consumed }
                return checksErrors ? .ask(SCPIDialect.errorQuery, soFar: reply) : .complete(reply)
            }
            let code = SCPIDialect.errorCode(in: line.text)
            if code == 0 { return .complete(reply) }
            errors.append(line)
            if code == nil || errors.count >= SCPIDialect.maximumErrorQueries { return .complete(reply) }
            return .ask(SCPIDialect.errorQuery, soFar: reply)
        }
    }
}

extension SCPIDialect {
    /// `--dialect scpi` (instrument: one line per query), for ``DialectRegistry/builtIn``.
    public static let kind = DialectKind(
        name: "scpi", summary: "instrument: one line per query",
        takes: [.terminator, .notificationPattern, .checksErrors, .sendsNothingUnsolicited, .listenPeriod]
    ) { settings in
        SCPIDialect(
            terminator: settings.terminator ?? .lf, checksErrors: settings.checksErrors,
            notificationPattern: settings.notificationPattern,
            listenPeriod: settings.sendsNothingUnsolicited ? nil : settings.listenPeriod)
    }
}
