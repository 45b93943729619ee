import Synchronization
import TetherCommandLine
import TetherConnection
import TetherLibC
import TetherModel
import TetherPresenter
import TetherViews

/// `tether query`: send each command, print each reply.
enum QueryCommand: Command {
    static let linger = Option<Duration>(
        "--linger", value: "duration",
        help: "After the last reply, go on showing lines until none has come for this long\n"
            + "(at most 5 times as long in all).", default: .zero, defaultHelp: "0, exit at once",
        range: .durations(.zero, to: .seconds(60), bare: .milliseconds, warnsBelow: 10))

    static let value = Flag(
        "--value", "-q",
        help: "Print each reply's text alone, one line per reply line, for shell scripts\n"
            + "(docs/SCRIPTS.md): notifications, error replies and timeouts go to\n"
            + "standard error, and the exit code says which.")

    static let spec = CommandSpec(
        program: "tether", name: "query",
        abstract: "Send commands to a device and print each reply.",
        discussion: """
            Each <command> is sent in turn (the dialect adds the line terminator) and its
            reply printed. Escapes in a command give any byte: \\r \\n \\t \\e (ESC),
            \\xNN (hex) and \\\\ (a backslash); '' sends the line terminator alone.
            Notifications that arrive meanwhile are printed too; query exits as soon as
            the last reply is in, unless --linger asks it to wait for the lines a device
            sends after it (e.g. '!ALARM test' after 'OK').
            With the line dialect and nothing said of what the device sends unasked, the
            first command waits 150 ms while tether listens, so that a line the device
            sends on its own is not taken for the reply (JSON: a 'held' record, reason
            'listen'); --no-unsolicited, --notify-pattern or --dialect scpi skip it.
            Exits 0 when every command got a reply, 1 if any reply was an error reply,
            75 if any timed out, 74 if the device disconnected (query never reconnects).

            EXAMPLES:
              tether query --sim '*IDN?' 'TEMP?'
              tether query /dev/ttyUSB0 --eol none 'PRINT 2+2\\r'
              tether query /dev/ttyUSB0 --baud 9600 --format json '*IDN?'
              t=$(tether query /dev/ttyUSB0 --value --quiet 'TEMP?')
              tether query rfc2217://lab-host:7001 --baud 9600 '*IDN?'   (ser2net: docs/REMOTE.md)
            """,
        arguments: [
            ArgumentSpec(name: "port", help: ConnectionOptions.portHelp),
            ArgumentSpec(name: "command", help: "A command to send, e.g. '*IDN?'.", isVariadic: true),
        ],
        options: [ConnectionOptions.format(showing: .eventLog).declaration, value.declaration, linger.declaration],
        groups: ConnectionOptions.sendingGroups(),
        usage: "tether query (<port> | --sim) <command> ... [<options>]"
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let (options, commands) = try ConnectionOptions.withPortFirst(arguments)
        guard !commands.isEmpty else { throw UsageError("Missing expected argument '<command> ...'") }
        if options.port == nil, let first = commands.first, first.hasPrefix("/"), FileSystem.kind(atPath: first) != nil
        {
            throw UsageError("Give either <port> or '--sim'/'--match', not both (got \(Quoted(first)))")
        }
        let encoded = try commands.map { (command) throws(UsageError) in try Self.bytes(of: command) }
        let linger = arguments[Self.linger]
        var view: (any DeviceView)?
        if arguments[Self.value] {
            guard options.format == .text else {
                throw UsageError(
                    "'--value' prints the replies' text; it does not go with '--format \(options.format.name)'")
            }
            let others = TextView(
                output: FileSink.standardError, timestamps: options.viewSettings.timestamper,
                showsHex: options.showsHex,
                isQuiet: options.isQuiet)
            view = ValueView(others: others)
        }
        let connection = try await Connection(options, view: view)
        // Every command's outcome arrives as an `exchanged` record, in order: replies,
        // timeouts, and — after a disconnect or Ctrl-C — a failure for the one in
        // flight and each one not sent, so the output accounts for every command.
        let outcomes = QueryOutcomes(expecting: commands.count)
        let lastRecord = LastRecord()
        let device = connection.device
        let timeout = options.timeout
        // Text without a line end is part of a reply on its way: query shows replies.
        // Each reply is rendered on the device's loop thread, in the turn that read it.
        return try await connection.runUntilStopped(
            showsPendingText: false, onDeviceLoop: true,
            observe: { record, _, _ in
                if linger > .zero { lastRecord.touch() }
                if case .exchanged(let exchange) = record.event {
                    outcomes.record(Self.exitCode(for: exchange.outcome))
                }
            },
            // The device ended before every command had an outcome (it hung up while
            // tether took in what was waiting at open): a disconnect, not success.
            whenViewEnds: { _ in outcomes.viewEnded() },
            work: { stop in
                for bytes in encoded { device.send(bytes: bytes, timeout: timeout) }
                let code = await outcomes.all()
                if linger > .zero { await Self.linger(quiet: linger, since: lastRecord) }
                stop.yield(code)
            })
    }

    /// `--linger`: lets lines already on their way be shown — a notification right
    /// after the last reply (`ALARM:TEST` → `OK`, then `!ALARM test …`): returns once
    /// no record has come for `quiet`, or after 5 × `quiet` on a line that never goes
    /// quiet.
    static func linger(quiet: Duration, since lastRecord: LastRecord) async {
        let longest = ContinuousClock.now + quiet * 5
        while ContinuousClock.now < longest {
            let quietUntil = lastRecord.time + quiet
            guard quietUntil > .now else { return }
            try? await Task.sleep(until: min(quietUntil, longest), clock: .continuous)
        }
    }

    /// When the view last rendered a record.
    final class LastRecord: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        /// The instant of the last record.
        var time: ContinuousClock.Instant { instant.withLock { $0 } }
        /// A record was rendered now.
        func touch() { instant.withLock { $0 = .now } }
    }

    /// The bytes to send for the argument `command`, its escapes decoded
    /// (``CommandText/bytes(fromEscaped:)``). An empty argument is a command: the line
    /// end alone.
    ///
    /// - Throws: ``UsageError`` for a line terminator typed into it (it would reach
    ///   the device as several commands; `\r` and `\n` written as escapes are sent)
    ///   or a bad escape.
    static func bytes(of command: String) throws(UsageError) -> [UInt8] {
        if let problem = CommandText.problem(in: command) {
            throw UsageError(CommandText.message(problem, in: command) + "; give each command as its own argument")
        }
        do {
            return try CommandText.bytes(fromEscaped: command)
        } catch {
            throw UsageError(error.description)
        }
    }

    /// The exit code for how a command ended.
    static func exitCode(for outcome: Exchange.Outcome) -> ExitCode {
        switch outcome {
        case .reply(_, _, let isError, _): isError ? .expectationFailed : .success
        case .timedOut: .timeout
        case .failed: .ioError
        }
    }
}
