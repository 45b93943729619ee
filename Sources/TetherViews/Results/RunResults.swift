import FoundationEssentials
import TetherPresenter

/// A run's records turned into test cases (``TestCase``): what ``JUnitView`` and
/// ``TAPView`` report. A value fed in the order the records come.
///
/// A check's device lines are the last ``linesKept`` lines of its device's traffic;
/// lines that follow a failure (up to ``linesAfter``) join it until the device's next
/// check. A check that failed because its device disconnected is an error
/// (`device_lost`), as is a run that ended with a device error no check shows; a
/// timed-out check is an error (`timeout`); a script error is a case of its own
/// (`script_error`); a check never run is skipped.
struct RunResults: Sendable {
    /// The device lines kept before a check.
    static let linesKept = 8
    /// The device lines after a failure added to it.
    static let linesAfter = 4

    /// The cases so far, in order.
    private(set) var cases: [TestCase] = []
    /// The summary, once the run is over.
    private(set) var summary: RunSummary?
    /// When the first record came: the run's start.
    private(set) var start: Date?
    /// Per device name (`""` for the unnamed one), its latest lines.
    private var recent: [String: [String]] = [:]
    /// The devices that disconnected, and why.
    private var lost: [String: String] = [:]
    /// Per device, the failed case that takes the lines that follow it, and how many
    /// it still takes.
    private var following: [String: (index: Int, room: Int)] = [:]

    /// Notes a device record: a line sent or received, a disconnect.
    mutating func note(_ record: ViewRecord, device: String?) {
        start = start ?? record.time
        let key = device ?? ""
        let lines: [String]
        switch record.event {
        case .sent(let command, _): lines = ["> " + ByteEscaping.escaped(command.bytes)]
        case .exchanged(let exchange):
            switch exchange.outcome {
            case .reply(let reply, let final, _, _): lines = (reply + [final].compactMap { $0 }).map(Self.received)
            case .timedOut(let timeout):
                lines = ["(no reply to \(TextView.escaped(exchange.command)) within \(timeout.milliseconds) ms)"]
            case .failed(let reason):
                lines = ["(\(TextView.escaped(exchange.command)) failed: \(TextView.escaped(reason)))"]
            }
        case .notification(let line, _): lines = [Self.received(line)]
        case .partialReply(_, let reply), .lateReply(_, let reply, _): lines = reply.map(Self.received)
        case .disconnected(_, let reason):
            lost[key] = reason
            lines = ["(disconnected: \(TextView.escaped(reason)))"]
        case .warning(let text): lines = ["(warning: \(TextView.escaped(text)))"]
        default: lines = []
        }
        guard !lines.isEmpty else { return }
        recent[key, default: []].append(contentsOf: lines)
        if let excess = recent[key].map({ $0.count - Self.linesKept }), excess > 0 {
            recent[key]?.removeFirst(excess)
        }
        if let (index, room) = following[key] {
            let taken = lines.prefix(room)
            cases[index].deviceLines.append(contentsOf: taken)
            following[key] = room > taken.count ? (index, room - taken.count) : nil
        }
    }

    /// Adds a run record; returns the case it made, if any.
    @discardableResult
    mutating func add(_ record: RunRecord) -> TestCase? {
        start = start ?? record.time
        switch record.event {
        case .checked(let result):
            let key = result.device ?? ""
            following[key] = nil
            let verdict: TestCase.Verdict =
                switch result.status {
                case .passed: .passed
                case .failed: result.isDeviceLost ? .error(kind: "device_lost") : .failed
                case .timedOut: .error(kind: "timeout")
                case .notRun: .skipped
                }
            let suite = result.location.file + (result.device.map { " [\($0)]" } ?? "")
            let made = TestCase(
                suite: suite, name: result.location.description + " " + result.description, verdict: verdict,
                expected: result.expected, actual: result.actual, detail: result.detail,
                deviceLines: [.passed, .skipped].contains(verdict) ? [] : recent[key] ?? [], time: record.time,
                seconds: seconds(to: record.time))
            return append(made, following: verdict == .passed ? nil : key)
        case .scriptFailed(let problem):
            let file = problem.location?.file ?? "script"
            return append(
                TestCase(
                    suite: file, name: (problem.location?.description ?? file) + " script error",
                    verdict: .error(kind: "script_error"), detail: problem.message, deviceLines: [],
                    time: record.time, seconds: seconds(to: record.time)), following: nil)
        case .finished(let summary):
            self.summary = summary
            let shown = cases.contains { if case .error(kind: "device_lost") = $0.verdict { true } else { false } }
            guard summary.outcome == .deviceError, !shown else { return nil }
            let (device, reason) = lost.first ?? ("", "the device failed")
            return append(
                TestCase(
                    suite: cases.last?.suite ?? "run", name: "device " + (device.isEmpty ? "" : "\(device) ") + "lost",
                    verdict: .error(kind: "device_lost"), detail: reason, deviceLines: recent[device] ?? [],
                    time: record.time, seconds: seconds(to: record.time)), following: nil)
        case .emitted, .checkedOnly:
            return nil
        }
    }

    private mutating func append(_ made: TestCase, following key: String?) -> TestCase {
        cases.append(made)
        if let key { following[key] = (cases.count - 1, Self.linesAfter) }
        return made
    }

    /// Seconds from the previous case (or the start) to `time`.
    private func seconds(to time: Date) -> Double {
        guard let since = cases.last?.time ?? start else { return 0 }
        return max(0, time.timeIntervalSince(since))
    }

    private static func received(_ line: ViewLine) -> String { "< " + ByteEscaping.escaped(line.bytes) }
}
