import FoundationEssentials
import TetherModel

/// Turns the Model's events into view state and view records: a pure reducer, no
/// I/O, no formatting.
public struct Presenter: Sendable {
    /// The state after every event handled so far.
    public private(set) var state: ViewState
    /// What was known of the device beforehand (units of its readings).
    private let facts: DeviceFacts
    /// The dialect, when it reads lines' values itself (``Dialect/fields(of:)``: `nmea`).
    private let dialect: (any Dialect)?
    /// Whether pending text (``ViewEvent/pendingText(_:)``) becomes records; when not
    /// (`tether query`, whose output is replies), it is only kept in the state.
    public var showsPendingText = true
    /// The crash formats whose addresses the facts' ``DeviceFacts/symbolizer`` looks up:
    /// the built-in ones, and the facts' ``DeviceFacts/crashFields``.
    private let crashFormats: [CrashAddressFormat]
    /// The exact bytes of commands sent and not yet ended whose bytes are not UTF-8
    /// (rare: nothing is kept for the others), for their exchange.
    private var undecodedCommands: [RequestID: [UInt8]] = [:]

    /// Creates a presenter for `port` (the name the user gave); `device` is a script
    /// run's name for it, if any; `facts` give the identity shown until the
    /// device answers `*IDN?`, and the units of its readings.
    ///
    /// `dialect` reads the values of notifications, or finds them damaged
    /// (`Dialect/fields(of:)`); where it reads nothing, `name=value` fields are read.
    public init(
        port: String, device: String? = nil, facts: DeviceFacts = DeviceFacts(), dialect: (any Dialect)? = nil
    ) {
        state = ViewState(port: port, device: device)
        state.identity = facts.identity.map { DeviceIdentity(parsing: $0, source: .description) }
        self.facts = facts
        self.dialect = dialect
        crashFormats =
            CrashAddressFormat.builtIn
            + (facts.crashFields.isEmpty ? [] : [CrashAddressFormat(name: "device", shape: .fields(facts.crashFields))])
    }

    /// Applies one device event.
    ///
    /// - Returns: the records views must render for it, in order (often one, none
    ///   for events that only change state).
    public mutating func handle(_ event: DeviceEvent) -> [ViewRecord] {
        handleEvent(event).map { [$0] } ?? []
    }

    /// Applies one device event: the record views must render for it, `nil` for an
    /// event that only changes state. (Every event makes at most one record, so
    /// ``present(_:to:observe:until:)`` builds no array per event.)
    mutating func handleEvent(_ event: DeviceEvent) -> ViewRecord? {
        let time = event.time
        switch event.kind {
        case .connected(let port, let settings):
            state.connection = .connected(since: time)
            state.settings = settings
            return ViewRecord(time: time, event: .connected(port: port, settings: settings))
        case .disconnected(let reason):
            state.connection = .disconnected(reason: reason, since: time)
            return ViewRecord(time: time, event: .disconnected(port: state.port, reason: reason))
        case .reconnecting:
            if case .disconnected(let reason, let since) = state.connection {
                state.connection = .reconnecting(reason: reason, since: since)
            }
            return ViewRecord(time: time, event: .reconnecting(port: state.port))
        case .reconnected(let port, let settings, let attempts, let downtime):
            state.connection = .connected(since: time)
            state.settings = settings
            state.counts.reconnects += 1
            return ViewRecord(
                time: time,
                event: .reconnected(port: port, settings: settings, attempts: attempts, downtime: downtime))
        case .missed(let count):
            state.counts.missed += count
            return ViewRecord(time: time, event: .missed(count: count))
        case .error(let message):
            alert(Alert(time: time, kind: .warning, line: ViewLine(message)))
            return ViewRecord(time: time, event: .warning(message))
        case .settingMismatch(let setting, let requested, let actual):
            let warning = SettingWarning(port: state.port, setting: setting, requested: requested, actual: actual)
            alert(Alert(time: time, kind: .warning, line: ViewLine(warning.description)))
            return ViewRecord(time: time, event: .settingNotApplied(warning))
        case .session(let sessionEvent):
            return handle(sessionEvent, at: time)
        case .received(let bytes):
            return ViewRecord(time: time, event: .received(bytes))
        case .wroteNow(let bytes):
            return ViewRecord(time: time, event: .sent(command: ViewLine(bytes: bytes), kind: .immediate))
        case .lineControl(let control):
            if case .settingsChanged(let settings) = control { state.settings = settings }
            return ViewRecord(time: time, event: .lineControl(LineControlRecord(control)))
        case .lineEvent(let event):
            return ViewRecord(time: time, event: .lineEvent(count(LineCondition(event), at: time)))
        }
    }

    /// The exact bytes of request `id`'s command when they are not UTF-8, forgotten
    /// now that it ended.
    private mutating func undecodedCommand(_ id: RequestID) -> [UInt8]? {
        undecodedCommands.isEmpty ? nil : undecodedCommands.removeValue(forKey: id)
    }

    private mutating func handle(_ event: SessionEvent, at time: Date) -> ViewRecord? {
        switch event {
        case .sent, .pendingText, .data, .commandMode, .settling, .held: break
        case .replied, .partialReply, .failed, .notification, .lateReply: state.pendingText = nil
        }
        switch event {
        case .sent(let id, _, let bytes, let isRaw):
            // ASCII (most commands) is UTF-8 without decoding a copy.
            if !isRaw, !bytes.allSatisfy({ $0 < 0x80 }), String(validating: bytes, as: UTF8.self) == nil {
                undecodedCommands[id] = bytes
            }
            return ViewRecord(
                time: time,
                event: .sent(
                    command: ViewLine(bytes: bytes, terminator: isRaw ? nil : facts.commandTerminator),
                    kind: isRaw ? .raw : .command))
        case .replied(let id, let command, let reply, let roundTrip):
            state.counts.replies += 1
            let lines = reply.lines.map(ViewLine.init)
            let finalResult = reply.finalResult.map(ViewLine.init)
            if reply.isError {
                state.counts.errorReplies += 1
                if let last = finalResult ?? lines.last {
                    alert(Alert(time: time, kind: .errorReply, line: last, command: command))
                }
            }
            var identity: DeviceIdentity?
            if Self.isIdentityQuery(command), !reply.isError, let first = lines.first {
                identity = DeviceIdentity(parsing: first.text)
                state.identity = identity
            }
            let outcome = Exchange.Outcome.reply(
                lines: lines, finalResult: finalResult, isError: reply.isError,
                roundTrip: roundTrip)
            return record(
                Exchange(
                    command: command, outcome: outcome, time: time, errorDescription: reply.errorDescription,
                    identity: identity, isInDoubt: reply.isInDoubt,
                    commandBytes: undecodedCommand(id)))
        case .failed(let id, let command, let failure):
            let outcome: Exchange.Outcome
            if case .timedOut(let timeout) = failure {
                state.counts.timeouts += 1
                outcome = .timedOut(timeout: timeout)
            } else {
                state.counts.failures += 1
                outcome = .failed(reason: failure.description)
            }
            return record(Exchange(command: command, outcome: outcome, time: time, commandBytes: undecodedCommand(id)))
        case .notification(let line):
            let readings: [Reading]
            switch dialect?.fields(of: line) {
            case .invalid(let reason)?:
                state.counts.invalidLines += 1
                alert(Alert(time: time, kind: .invalidLine, line: ViewLine(line)))
                return ViewRecord(time: time, event: .invalidLine(ViewLine(line), reason: reason))
            case .values(let fields)?:
                readings = fields.map {
                    Reading(name: $0.name, value: $0.value, time: time, describedUnit: $0.unit ?? facts.units[$0.name])
                }
            case nil:
                // Most lines hold no `name=value` field: skip splitting them.
                readings =
                    line.bytes.contains(UInt8(ascii: "="))
                    ? Reading.fields(in: line.text, at: time, units: facts.units) : []
            }
            state.counts.notifications += 1
            let shown = annotated(ViewLine(line))
            if let level = shown.level { state.counts.levels[level, default: 0] += 1 }
            for reading in readings {
                if let index = state.readings.firstIndex(where: { $0.latest.name == reading.name }) {
                    state.readings[index].update(with: reading)
                } else if state.readings.count < ViewState.maximumReadingNames {
                    state.readings.append(ReadingSeries(reading))
                } else {
                    state.counts.untrackedReadings += 1
                }
            }
            if Alert.isAlarm(bytes: line.bytes) { alert(Alert(time: time, kind: .alarm, line: ViewLine(line))) }
            return ViewRecord(time: time, event: .notification(shown, readings: readings))
        case .partialReply(_, let command, let lines):
            return ViewRecord(time: time, event: .partialReply(command: command, lines: lines.map(ViewLine.init)))
        case .lateReply(let command, let reply):
            state.counts.lateReplies += 1
            let lines = (reply.lines + [reply.finalResult].compactMap { $0 }).map(ViewLine.init)
            return ViewRecord(time: time, event: .lateReply(command: command, lines: lines, isInDoubt: reply.isInDoubt))
        case .settling(let evidence):
            return ViewRecord(time: time, event: .settling(SettlingNote(evidence)))
        case .held(let reason, let duration, let command):
            return ViewRecord(time: time, event: .held(reason: reason.rawValue, duration: duration, command: command))
        case .data(let bytes):
            state.counts.dataBytes += bytes.count
            return ViewRecord(time: time, event: .data(bytes))
        case .commandMode(let line):
            return ViewRecord(time: time, event: .commandMode(ViewLine(line)))
        case .pendingText(let line, _):
            state.pendingText = ViewLine(line)
            return showsPendingText ? ViewRecord(time: time, event: .pendingText(ViewLine(line))) : nil
        }
    }

    /// `line` with its log level, and the symbols of its crash addresses when the facts
    /// have a symbolizer.
    private func annotated(_ line: ViewLine) -> ViewLine {
        var line = line
        line.level = LogLevel.of(line.bytes)
        guard let symbolizer = facts.symbolizer else { return line }
        line.symbols = CrashAddressFormat.addresses(in: line.bytes, formats: crashFormats).map {
            AddressSymbol(address: $0.address, field: $0.field, lookup: symbolizer.lookUp($0.address))
        }
        return line
    }

    private mutating func record(_ exchange: Exchange) -> ViewRecord {
        state.recentExchanges.append(exchange)
        if state.recentExchanges.count > ViewState.maximumRecentExchanges {
            state.recentExchanges.removeFirst()
        }
        return ViewRecord(time: exchange.time, event: .exchanged(exchange))
    }

    /// Counts `condition` in the state, and a break or a line error as an alert too.
    private mutating func count(_ condition: LineCondition, at time: Date) -> LineCondition {
        switch condition.kind {
        case .lineBreak: state.counts.breaks += 1
        case .framingError, .parityError, .framingOrParityError, .overrun: state.counts.lineErrors += 1
        case .modemLines: state.counts.modemLineChanges += 1
        }
        if condition.kind != .modemLines {
            alert(Alert(time: time, kind: .lineEvent, line: ViewLine(condition.summary)))
        }
        return condition
    }

    private mutating func alert(_ alert: Alert) {
        state.alerts.append(alert)
        if state.alerts.count > ViewState.maximumAlerts { state.alerts.removeFirst() }
    }

    /// `*IDN?` (IEEE 488.2) in any letter case. A command without `*` is told apart
    /// by one scan of its bytes, without trimming and upper-casing a copy per reply.
    static func isIdentityQuery(_ command: String) -> Bool {
        command.utf8.contains(UInt8(ascii: "*")) && command.trimmingWhitespace().uppercased() == "*IDN?"
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
        let terminator: LineEnd? =
            switch line.terminator {
            case .cr: .cr
            case .lf: .lf
            case .crlf: .crlf
            // `Terminator.none` ends commands only; a received line never has it.
            case .some(.none), nil: nil
            }
        self.init(
            bytes: line.bytes, ending: ending, exactBytes: line.exactBytes, terminator: terminator,
            payloadRange: line.payloadRange)
    }
}

extension LineControlRecord {
    /// The record of the Model's event.
    init(_ event: LineControlEvent) {
        switch event {
        case .sequence(let name, let steps): self = .sequence(name: name, steps: steps.map(Step.init))
        case .lines(let step): self = .lines(Step(step))
        case .settingsChanged(let settings): self = .settingsChanged(settings: settings)
        }
    }
}

extension LineControlRecord.Step {
    init(_ step: LineStep) {
        self.init(dtr: step.dtr, rts: step.rts, isBreak: step.isBreak, holdMilliseconds: Int(step.hold.milliseconds))
    }
}
