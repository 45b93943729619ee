import FoundationEssentials
import TetherModel

/// Turns the Model's events into view state and view records: a pure reducer, no
/// I/O, no formatting.
public struct Presenter: Sendable {
    /// The state after every event handled so far.
    public private(set) var state: ViewState

    /// Creates a presenter for `port` (the name the user gave); `device` is a script
    /// run's name for it, if any.
    public init(port: String, device: String? = nil) {
        state = ViewState(port: port, device: device)
    }

    /// Applies one device event.
    ///
    /// - Returns: the records views must render for it, in order (often one, none
    ///   for events that only change state).
    public mutating func handle(_ event: DeviceEvent) -> [ViewRecord] {
        let time = event.time
        switch event.kind {
        case .connected(let port, let settings):
            state.connection = .connected(settings: settings)
            return [ViewRecord(time: time, event: .connected(port: port, settings: settings))]
        case .disconnected(let reason):
            state.connection = .disconnected(reason: reason)
            return [ViewRecord(time: time, event: .disconnected(port: state.port, reason: reason))]
        case .reconnecting:
            if case .disconnected(let reason) = state.connection { state.connection = .reconnecting(reason: reason) }
            return [ViewRecord(time: time, event: .reconnecting(port: state.port))]
        case .reconnected(let port, let settings, let attempts, let downtime):
            state.connection = .connected(settings: settings)
            state.counts.reconnects += 1
            return [
                ViewRecord(
                    time: time,
                    event: .reconnected(port: port, settings: settings, attempts: attempts, downtime: downtime))
            ]
        case .missed(let count):
            state.counts.missed += count
            return [ViewRecord(time: time, event: .missed(count: count))]
        case .error(let message):
            return [ViewRecord(time: time, event: .warning(message))]
        case .session(let sessionEvent):
            return handle(sessionEvent, at: time)
        }
    }

    private mutating func handle(_ event: SessionEvent, at time: Date) -> [ViewRecord] {
        switch event {
        case .sent(_, let command):
            return [ViewRecord(time: time, event: .sent(command: command))]
        case .replied(_, let command, let reply, let roundTrip):
            state.counts.replies += 1
            if reply.isError { state.counts.errorReplies += 1 }
            let lines = reply.lines.map(ViewLine.init)
            var identity: DeviceIdentity?
            if Self.isIdentityQuery(command), !reply.isError, let first = lines.first {
                identity = DeviceIdentity(parsing: first.text)
                state.identity = identity
            }
            let outcome = Exchange.Outcome.reply(
                lines: lines, finalResult: reply.finalResult.map(ViewLine.init), isError: reply.isError,
                roundTrip: roundTrip)
            return [
                record(
                    Exchange(
                        command: command, outcome: outcome, time: time, errorDescription: reply.errorDescription,
                        identity: identity))
            ]
        case .failed(_, let command, let failure):
            let outcome: Exchange.Outcome
            if case .timedOut(let timeout) = failure {
                state.counts.timeouts += 1
                outcome = .timedOut(timeout: timeout)
            } else {
                state.counts.failures += 1
                outcome = .failed(reason: failure.description)
            }
            return [record(Exchange(command: command, outcome: outcome, time: time))]
        case .notification(let line):
            state.counts.notifications += 1
            // Most lines hold no `name=value` field: skip decoding and splitting them.
            let readings = line.bytes.contains(UInt8(ascii: "=")) ? Self.readings(in: line.text, at: time) : []
            for reading in readings { state.readings[reading.name] = reading }
            return [ViewRecord(time: time, event: .notification(ViewLine(line), readings: readings))]
        case .partialReply(_, let command, let lines):
            return [ViewRecord(time: time, event: .partialReply(command: command, lines: lines.map(ViewLine.init)))]
        case .lateReply(let command, let reply):
            state.counts.lateReplies += 1
            let lines = (reply.lines + [reply.finalResult].compactMap { $0 }).map(ViewLine.init)
            return [ViewRecord(time: time, event: .lateReply(command: command, lines: lines))]
        }
    }

    private mutating func record(_ exchange: Exchange) -> ViewRecord {
        state.recentExchanges.append(exchange)
        if state.recentExchanges.count > ViewState.maximumRecentExchanges {
            state.recentExchanges.removeFirst()
        }
        return ViewRecord(time: exchange.time, event: .exchanged(exchange))
    }

    /// `*IDN?` (IEEE 488.2) in any letter case.
    static func isIdentityQuery(_ command: String) -> Bool {
        command.trimmingWhitespace().uppercased() == "*IDN?"
    }

    /// The `name=value` fields of a notification, e.g. `temp=22.87` in
    /// `!READING temp=22.87 hum=41.3`. Names are letters, digits, `_`, `.` and `-`.
    static func readings(in text: String, at time: Date) -> [Reading] {
        text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ";" || $0 == "\t" }).compactMap { field in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            let name = String(parts[0])
            let value = String(parts[1])
            guard !name.isEmpty, !value.isEmpty,
                name.allSatisfy({ $0.isLetter || $0.isNumber || "_.-".contains($0) })
            else { return nil }
            return Reading(name: name, value: value, number: Double(value), time: time)
        }
    }
}

extension ViewLine {
    /// The Model's line as a view line.
    init(_ line: Line) {
        let ending: Ending =
            switch line.ending {
            case .terminated: .terminated
            case .overlong: .overlong
            case .unterminated: .unterminated
            }
        self.init(bytes: line.bytes, ending: ending)
    }
}
