/// The `line` dialect: each query gets exactly one reply line.
///
/// - Commands are sent followed by ``terminator`` (LF by default; `--eol`).
/// - Received lines may end in CR, LF or CR LF (see ``LineFramer``); empty lines are
///   ignored.
/// - A received line that equals the command is the device's echo and is dropped.
/// - A line matching ``notificationPattern`` is always a notification; any other
///   line answers the pending query. Lines that arrive while nothing is pending are
///   notifications.
/// - A reply matching ``errorPattern`` is an error reply (default: starts with
///   `ERR`, e.g. `ERR -222,"Data out of range"`).
public struct LineDialect: Dialect {
    /// The line terminator written after each command.
    public var terminator: Terminator
    /// Lines that are always notifications (e.g. `^!` for the simulator's
    /// environmental controller), or `nil`.
    public var notificationPattern: LinePattern?
    /// Replies that are errors, or `nil` for none.
    public var errorPattern: LinePattern?
    /// How long to listen before the first request, for a device known to speak
    /// unasked (replies then settle from the first, see ``Session``), or `nil`.
    public var listenPeriod: Duration?
    /// How long to listen before the first request when told nothing of what the
    /// device says unasked (``Dialect/openingListen``), or `nil`.
    public var openingListen: Duration?

    /// The opening listen of a `line` device told nothing: 150 ms, so a device printing
    /// every few tens of ms is learned before the first reply (docs/DIALECTS.md, "Stray
    /// lines").
    public static let defaultOpeningListen = Duration.milliseconds(150)

    /// Creates the dialect.
    public init(
        terminator: Terminator = .lf, notificationPattern: LinePattern? = nil,
        errorPattern: LinePattern? = LinePattern.defaultError, listenPeriod: Duration? = nil,
        openingListen: Duration? = nil
    ) {
        self.terminator = terminator
        self.notificationPattern = notificationPattern
        self.errorPattern = errorPattern
        self.listenPeriod = listenPeriod
        self.openingListen = openingListen
    }

    public var name: String { Self.kind.name }

    /// A reply line carries nothing tying it to its command: each reply settles
    /// before the next command (see ``Session``).
    public var repliesAreUnmarked: Bool { true }

    public func expectsReply(to command: String) -> Bool { true }

    public func makeMatcher(for command: String) -> any ReplyMatcher {
        Matcher(command: Array(command.utf8), errorPattern: errorPattern)
    }

    public func isUnsolicited(_ line: Line, pending: String?) -> Bool {
        notificationPattern?.matches(line) ?? false
    }

    private struct Matcher: ReplyMatcher {
        let command: [UInt8]
        let errorPattern: LinePattern?
        var hasStarted: Bool { false }

        mutating func offer(_ line: Line) -> MatchStep {
            if line.isEmpty { return .notMine }
            if line.bytes == command { return .echo }
            return .complete(Reply(lines: [line], isError: errorPattern?.matches(line) ?? false))
        }
    }
}

extension LineDialect {
    /// `--dialect line` (one reply line per query), for ``DialectRegistry/builtIn``.
    public static let kind = DialectKind(
        name: "line", summary: "one reply line per query",
        takes: [.terminator, .notificationPattern, .errorPattern, .sendsNothingUnsolicited, .listenPeriod]
    ) { settings in
        LineDialect(
            terminator: settings.terminator ?? .lf, notificationPattern: settings.notificationPattern,
            errorPattern: settings.errorPattern ?? LinePattern.defaultError,
            listenPeriod: settings.sendsNothingUnsolicited ? nil : settings.listenPeriod,
            openingListen: settings.sendsNothingUnsolicited || settings.notificationPattern != nil
                || settings.listenPeriod != nil ? nil : defaultOpeningListen)
    }
}
