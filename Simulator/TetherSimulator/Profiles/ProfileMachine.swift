import Glibc

/// A profiled device's state and interpreter, free of I/O and locks: what it answers to
/// each line, and which notifications fall due when. ``ProfileDevice`` wraps it.
///
/// Every call takes the current instant. Number properties with `drift` advance to that
/// instant first; a property with `noise` is measured once per call, so every template of
/// one reply or one round of notifications shows the same reading.
struct ProfileMachine {
    let profile: DeviceProfile
    private var values: [PropertyValue]
    private var random: SeededRandomGenerator
    private var lastAdvance: ContinuousClock.Instant?
    /// Readings taken during the current call, by property index.
    private var readings: [Int: Double] = [:]
    private var errorQueue: [(code: Int, message: String)] = []
    /// When each notification is next due; `nil` when off or no client is connected.
    private(set) var due: [ContinuousClock.Instant?]
    /// Per notification with a condition: whether the last check found it false.
    private var isArmed: [Bool]
    private var isConnected = false
    private var assembler = LineAssembler()
    /// The line whose row showed a text prompt (``ProfileCommand/textPrompt``), while
    /// its text is being received, or `nil`.
    private var textCommand: String?
    /// The `{serial}` text, also put in place of `{serial}` in the identity.
    private let serialNumber: String

    init(profile: DeviceProfile, seed: UInt64, serialNumber: String) {
        self.profile = profile
        self.serialNumber = serialNumber
        values = profile.properties.map(\.initial)
        random = SeededRandomGenerator(seed: seed)
        due = Array(repeating: nil, count: profile.notifications.count)
        isArmed = Array(repeating: true, count: profile.notifications.count)
    }

    /// The earliest due notification.
    var nextWakeUp: ContinuousClock.Instant? { due.compactMap { $0 }.min() }

    /// A client connected: schedules start now.
    mutating func connect(at now: ContinuousClock.Instant) {
        isConnected = true
        assembler.reset()
        for index in profile.notifications.indices { schedule(index, from: now, first: true) }
    }

    /// The client left: nothing is due until the next one connects.
    mutating func disconnect() {
        isConnected = false
        assembler.reset()
        due = due.map { _ in nil }
    }

    /// Handles bytes from the host.
    ///
    /// - Returns: The bytes to send back (echo, replies, prompt), in order; empty for none.
    mutating func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [UInt8] {
        begin(at: now)
        let filtered =
            switch profile.input {
            case .any: bytes
            case .cr: bytes.filter { $0 != UInt8(ascii: "\n") }
            case .lf: bytes.filter { $0 != UInt8(ascii: "\r") }
            }
        var output: [UInt8] = []
        var rest = filtered[...]
        while !rest.isEmpty {
            if let line = textCommand {
                rest = takeText(rest, for: line, into: &output, at: now)
                continue
            }
            // One line at a time: a line may open a text prompt, and the bytes after it
            // are then text, not lines.
            let end = rest.firstIndex { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }.map { $0 + 1 }
            for item in assembler.append(Array(rest[..<(end ?? rest.endIndex)])) {
                switch item {
                case .line(let line):
                    if isEchoing { output += Array((line + (profile.echoEnd ?? "")).utf8) }
                    output += execute(line, at: now)
                case .overflow:
                    output += Array(fail(profile.errors.lineTooLong, line: "", captures: []).map(frame).joined().utf8)
                }
                if let prompt = profile.prompt { output += Array(prompt.utf8) }
            }
            rest = rest[(end ?? rest.endIndex)...]
        }
        return output
    }

    /// Whether echo is on.
    private var isEchoing: Bool { profile.echoEnd != nil && values.last == .bool(true) }

    /// Takes text bytes for `line`'s prompt, echoed when echo is on, up to Ctrl-Z (the
    /// row runs) or ESC (cancelled: the final reply alone).
    ///
    /// - Returns: the bytes after the one that ended the text (none while it goes on).
    private mutating func takeText(
        _ bytes: ArraySlice<UInt8>, for line: String, into output: inout [UInt8], at now: ContinuousClock.Instant
    ) -> ArraySlice<UInt8> {
        let end = bytes.firstIndex { $0 == 0x1A || $0 == 0x1B }
        if isEchoing { output += bytes[..<(end ?? bytes.endIndex)] }
        guard let end else { return [] }
        textCommand = nil
        if bytes[end] == 0x1A {
            output += execute(line, at: now, textGiven: true)
        } else if let finalReply = profile.finalReply {
            output += Array(frame(render(finalReply, line: line, captures: [])).utf8)
        }
        return bytes[(end + 1)...]
    }

    /// The notifications due at `now`, framed, in order; reschedules them.
    mutating func wakeUp(at now: ContinuousClock.Instant) -> String {
        begin(at: now)
        var output = ""
        for index in profile.notifications.indices {
            guard let time = due[index], time <= now else { continue }
            output += fire(index)
            for (follower, notification) in profile.notifications.enumerated()
            where notification.after != nil && notification.after == profile.notifications[index].name {
                output += fire(follower)
            }
            schedule(index, from: time, first: false, now: now)
        }
        return output
    }

    // MARK: - Commands

    /// One line: the exact bytes of the rows that send some (``ProfileCommand/bytes``),
    /// then its reply lines framed (and the final result code), or its error.
    ///
    /// A line whose row has a text prompt gets the prompt alone until its text came
    /// (`textGiven`).
    private mutating func execute(_ rawLine: String, at now: ContinuousClock.Instant, textGiven: Bool = false)
        -> [UInt8]
    {
        let line = rawLine.trimmingBlanks()
        guard !line.isEmpty else { return [] }
        if !textGiven, let prompt = firstCommand(matching: line)?.0.textPrompt {
            textCommand = line
            return Array(prompt.utf8)
        }
        var units =
            profile.separator.map { separator in
                line.split(separator: separator, omittingEmptySubsequences: false).map { $0.trimmingBlanks() }
            } ?? [line]
        // V.250 concatenation: `AT+CSQ;+CREG?` is `AT+CSQ` then `AT+CREG?`, each reply
        // on its own lines and one final result code for all.
        let isAT = profile.dialect == "at"
        if isAT, let first = units.first, first.uppercased().hasPrefix("AT") {
            let prefix = first.prefix(2)
            units = [first] + units.dropFirst().map { $0.isEmpty ? $0 : prefix + $0 }
        }
        var answers: [String] = []
        var exact: [UInt8] = []
        for unit in units where !unit.isEmpty {
            switch run(unit, at: now, bytes: &exact) {
            case .success(let lines): answers += lines
            case .failure(let failure):
                return exact + Array((answers + failure.lines).map(frame).joined().utf8)
            }
        }
        if let separator = profile.separator, !isAT, answers.count > 1 {
            answers = [answers.joined(separator: separator)]
        }
        if let finalReply = profile.finalReply {
            answers.append(render(finalReply, line: line, captures: []))
        }
        return exact + Array(answers.map(frame).joined().utf8)
    }

    /// Lines an error produced: the error reply, or none when it went to the queue.
    private struct Failure: Error {
        var lines: [String]
    }

    private mutating func run(_ line: String, at now: ContinuousClock.Instant, bytes: inout [UInt8])
        -> Result<[String], Failure>
    {
        guard let (command, captures) = firstCommand(matching: line) else {
            return .failure(Failure(lines: fail(profile.errors.unknownCommand, line: line, captures: [])))
        }
        if let error = command.error {
            return .failure(Failure(lines: fail(error, line: line, captures: captures)))
        }
        var updates: [(Int, PropertyValue)] = []
        for (index, template) in command.assignments {
            do {
                updates.append(
                    (index, try profile.properties[index].parse(render(template, line: line, captures: captures))))
            } catch .invalid {
                return .failure(Failure(lines: fail(profile.errors.invalidValue, line: line, captures: captures)))
            } catch {
                return .failure(Failure(lines: fail(profile.errors.outOfRange, line: line, captures: captures)))
            }
        }
        for (index, value) in updates { set(index, to: value, at: now) }
        switch command.action {
        case .reset?:
            for index in values.indices { set(index, to: profile.properties[index].initial, at: now) }
        case .clearErrors?:
            errorQueue.removeAll()
        case .popError?:
            let entry = errorQueue.isEmpty ? nil : errorQueue.removeFirst()
            let empty = profile.errors.queue.map { queue in
                (queue.empty.code, render(queue.empty.message, line: line, captures: []))
            }
            guard let (code, message) = entry ?? empty else { return .success([]) }
            return .success(errorLines(code: code, message: message, line: line))
        case nil:
            break
        }
        bytes += command.bytes
        let templates = command.reply?.templates(shown: shown) ?? []
        return .success(templates.map { render($0, line: line, captures: captures) })
    }

    private func firstCommand(matching line: String) -> (ProfileCommand, [String])? {
        for command in profile.commands {
            if let captures = command.match(line) { return (command, captures) }
        }
        return nil
    }

    /// Reports an error: its reply lines (inline), or none after queueing it.
    private mutating func fail(_ entry: ProfileErrors.Entry, line: String, captures: [String]) -> [String] {
        let message = render(entry.message, line: line, captures: captures)
        guard let queue = profile.errors.queue else {
            return errorLines(code: entry.code, message: message, line: line)
        }
        if errorQueue.count < queue.size {
            errorQueue.append((entry.code, message))
        } else {
            errorQueue[queue.size - 1] = (queue.overflow.code, render(queue.overflow.message, line: line, captures: []))
        }
        return []
    }

    private func errorLines(code: Int, message: String, line: String) -> [String] {
        profile.errors.reply.templates(shown: shown).map { template in
            template.render { name, format in
                switch name {
                case "code": String(code)
                case "message": message
                default: field(name, format: format, line: line, captures: [])
                }
            }
        }
    }

    /// Sets a property; a notification interval bound to it restarts from now.
    private mutating func set(_ index: Int, to value: PropertyValue, at now: ContinuousClock.Instant) {
        values[index] = value
        readings[index] = nil
        for (notification, entry) in profile.notifications.enumerated() where entry.interval == .property(index) {
            schedule(notification, from: now, first: false)
        }
    }

    // MARK: - Notifications

    /// Sends notification `index` if its condition allows; counts with `increment`.
    private mutating func fire(_ index: Int) -> String {
        let notification = profile.notifications[index]
        if let condition = notification.condition {
            let value = reading(condition.property)
            let threshold: Double =
                switch condition.threshold {
                case .value(let number): number
                case .property(let name): values[propertyIndex(name)].number ?? 0
                }
            let holds = condition.isAtLeast ? value >= threshold : value <= threshold
            defer { isArmed[index] = !holds }
            guard holds, isArmed[index] else { return "" }
        }
        if let counter = notification.increment, case .int(let count) = values[counter] {
            let property = profile.properties[counter]
            let (next, overflow) = count.addingReportingOverflow(1)
            let wraps = overflow || property.maximum.map { Double(next) > $0 } ?? false
            values[counter] = .int(wraps ? property.minimum.flatMap(PropertyValue.wholeNumber) ?? 0 : next)
        }
        return notification.send.map { frame(render($0, line: "", captures: [])) }.joined()
    }

    /// Sets when notification `index` is next due: one interval after `from` (or its
    /// `firstAfter` when a client has just connected); never in the past of `now`.
    private mutating func schedule(
        _ index: Int, from start: ContinuousClock.Instant, first: Bool, now: ContinuousClock.Instant? = nil
    ) {
        let notification = profile.notifications[index]
        let interval: Int? =
            switch notification.interval {
            case .milliseconds(let milliseconds)?: milliseconds
            case .property(let property)?:
                values[property].number.map { $0 >= 1 ? Int(exactly: $0.rounded(.towardZero)) ?? .max : 0 }
            case nil: nil
            }
        guard isConnected, let interval, interval > 0 else {
            due[index] = nil
            return
        }
        let next = start + .milliseconds(first ? notification.firstAfter ?? interval : interval)
        if let now, next <= now {
            due[index] = now + .milliseconds(interval)
        } else {
            due[index] = next
        }
    }

    // MARK: - Values

    /// Advances drift to `now` and starts a new round of readings.
    private mutating func begin(at now: ContinuousClock.Instant) {
        readings.removeAll()
        defer { lastAdvance = now }
        guard let lastAdvance, now > lastAdvance else { return }
        let (seconds, attoseconds) = (now - lastAdvance).components
        let elapsed = Double(seconds) + Double(attoseconds) / 1e18
        for (index, property) in profile.properties.enumerated() {
            guard let drift = property.drift, case .number(var value) = values[index] else { continue }
            if let toward = drift.toward {
                let target: Double =
                    switch toward {
                    case .value(let number): number
                    case .property(let name): values[propertyIndex(name)].number ?? value
                    }
                value += (target - value) * (1 - exp(-elapsed / drift.timeConstant))
            }
            value += drift.rate * elapsed
            if drift.wander > 0 {
                value += Double.random(in: -drift.wander...drift.wander, using: &random) * min(1, elapsed)
            }
            values[index] = .number(property.clamp(value))
        }
    }

    /// Property `index` as measured in this round (its value plus noise, once per round).
    private mutating func reading(_ index: Int) -> Double {
        if let reading = readings[index] { return reading }
        let property = profile.properties[index]
        var value = values[index].number ?? 0
        if property.noise > 0 {
            value = property.clamp(value + Double.random(in: -property.noise...property.noise, using: &random))
        }
        readings[index] = value
        return value
    }

    private func propertyIndex(_ name: String) -> Int {
        profile.properties.firstIndex { $0.name == name }!
    }

    /// How property `name` is shown (for reply choices).
    private func shown(_ name: String) -> String {
        let index = propertyIndex(name)
        return profile.properties[index].text(values[index])
    }

    private mutating func render(_ template: ReplyTemplate, line: String, captures: [String]) -> String {
        for case .field(let name, _) in template.pieces {
            if let index = profile.properties.firstIndex(where: { $0.name == name }),
                profile.properties[index].noise > 0
            {
                _ = reading(index)
            }
        }
        return template.render { name, format in field(name, format: format, line: line, captures: captures) }
    }

    /// A field's text; noisy properties must have been read this round (``render``).
    private func field(_ name: String, format: String?, line: String, captures: [String]) -> String {
        if let number = Int(name) { return number <= captures.count ? captures[number - 1] : "" }
        switch name {
        case "identity": return profile.identity(serialNumber: serialNumber)
        case "serial": return serialNumber
        case "line": return line
        case "errorCount": return String(errorQueue.count)
        default:
            let index = propertyIndex(name)
            let property = profile.properties[index]
            let value = readings[index].map(PropertyValue.number) ?? values[index]
            return property.text(value, format: format)
        }
    }

    private func frame(_ line: String) -> String {
        profile.lineStart + line + profile.lineEnd
    }
}
