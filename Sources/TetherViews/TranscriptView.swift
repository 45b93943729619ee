import FoundationEssentials
import Glibc
import TetherPresenter

/// The `--log FILE` view: a timestamped transcript of both directions, written beside
/// the terminal's view (see ``FanOutView``).
///
/// One line per record, written as it happens:
///
/// ```text
/// 2026-11-30T10:41:17.120Z * connected sim:env (/dev/pts/3) 115200 8N1
/// 2026-11-30T10:41:17.200Z > *IDN?
/// 2026-11-30T10:41:17.203Z < TETHER,ENV-1,SIM0001,1.0  (3 ms)
/// 2026-11-30T10:41:18.001Z ! !READING temp=22.87 hum=41.3
/// 2026-11-30T10:41:19.210Z x SETP?: no reply within 1000 ms
/// ```
///
/// - the time, UTC, ISO 8601 with milliseconds;
/// - `>` a command sent to the device, `<` a reply line received (the first with the
///   round trip), `!` a notification, `x` a request that got no reply, `*` a
///   connection event or warning;
/// - the bytes escaped as ``ByteEscaping`` does, so the file is plain text.
public struct TranscriptView: DeviceView {
    /// The file could not be created.
    public struct OpenError: Error, CustomStringConvertible {
        /// The path as given.
        public var path: String
        /// `strerror` of `open`'s errno.
        public var reason: String

        public var description: String { "\(path): \(reason)" }
    }

    let output: any OutputSink

    /// Creates (or truncates) the file at `path`, mode 0644.
    ///
    /// - Parameter appending: add to the end of an existing file instead of
    ///   truncating it.
    /// - Throws: ``OpenError`` when it cannot be created.
    public init(path: String, appending: Bool = false) throws(OpenError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | (appending ? O_APPEND : O_TRUNC) | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno))) }
        output = FileSink(descriptor: descriptor, name: path, endsOnFailure: true)
    }

    /// Creates a transcript written to `output` (tests).
    public init(output: any OutputSink) {
        self.output = output
    }

    public func render(_ record: ViewRecord, state: ViewState) {
        let lines = Self.lines(for: record.event)
        guard !lines.isEmpty else { return }
        let time = JSONView.timestamp(record.time)
        output.write(lines.map { "\(time) \($0)\n" }.joined())
    }

    /// The transcript lines of one event, without the time.
    static func lines(for event: ViewEvent) -> [String] {
        switch event {
        case .waiting(let port):
            return ["* waiting for \(port)"]
        case .connected(let port, let settings):
            return ["* connected \(port) \(settings)"]
        case .sent(let command):
            return ["> " + ByteEscaping.escaped(Array(command.utf8))]
        case .exchanged(let exchange):
            let command = ByteEscaping.escaped(Array(exchange.command.utf8))
            switch exchange.outcome {
            case .reply(let lines, let finalResult, let isError, let roundTrip):
                let shown = (lines + [finalResult].compactMap { $0 }).map { ByteEscaping.escaped($0.bytes) }
                let mark = isError ? " error" : ""
                guard let first = shown.first else {
                    return ["< (no reply to \(command))  (\(roundTrip.milliseconds) ms)"]
                }
                return ["< \(first)  (\(roundTrip.milliseconds) ms\(mark))"] + shown.dropFirst().map { "< " + $0 }
            case .timedOut(let timeout):
                return ["x \(command): no reply within \(timeout.milliseconds) ms"]
            case .failed(let reason):
                return ["x \(command): \(reason)"]
            }
        case .notification(let line, _):
            return ["! " + ByteEscaping.escaped(line.bytes)]
        case .partialReply(let command, let lines), .lateReply(let command, let lines):
            let what = if case .lateReply = event { "late reply to" } else { "received before the timeout of" }
            return ["* \(what) \(ByteEscaping.escaped(Array(command.utf8)))"]
                + lines.map { "< " + ByteEscaping.escaped($0.bytes) }
        case .disconnected(let port, let reason):
            return ["* disconnected \(port): \(reason)"]
        case .reconnecting(let port):
            return ["* reconnecting \(port)"]
        case .reconnected(let port, let settings, let attempts, let downtime):
            return ["* reconnected \(port) \(settings) after \(downtime.milliseconds) ms, \(attempts) attempts"]
        case .missed(let count):
            return ["* missed \(count) events"]
        case .warning(let message):
            return ["* warning: \(message)"]
        case .settingNotApplied(let warning):
            return ["* warning: \(warning)"]
        }
    }
}
