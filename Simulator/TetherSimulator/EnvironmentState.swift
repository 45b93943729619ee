import Foundation

/// The environmental controller's state and command interpreter, free of I/O and locks.
///
/// ``EnvironmentalController`` wraps it for the simulator; the protocol it speaks is
/// documented in Simulator/README.md. Replies and notifications are returned as lines
/// without terminators.
struct EnvironmentState {
    /// The `*IDN?` reply (IEEE 488.2: manufacturer, model, serial, firmware).
    static let identity = "TETHER,ENV-1,SIM0001,1.0"
    /// Accepted setpoints, °C.
    static let setpointRange = 5.0...35.0
    /// Accepted reading intervals, ms (0 turns readings off).
    static let rateRange = 50...60000
    /// Accepted alarm limits, °C.
    static let alarmRange = -40.0...125.0

    private var climate = ClimateModel()
    private var random: SeededRandomGenerator
    /// Reading notification interval, ms; 0 = off.
    private var rate = 1000
    /// Alarm limit, °C.
    private var alarmLimit = 30.0
    /// The last reading was below the limit (or there was none): the next one at or above
    /// it raises `!ALARM temp_high`.
    private var isAlarmArmed = true
    /// When the next `!READING` is due; `nil` when off or no client is connected.
    private(set) var nextReading: ContinuousClock.Instant?

    init(seed: UInt64) {
        random = SeededRandomGenerator(seed: seed)
    }

    /// A client connected: readings start one interval from now.
    mutating func start(at now: ContinuousClock.Instant) {
        nextReading = rate > 0 ? now + .milliseconds(rate) : nil
    }

    /// The client left: no readings until the next one connects.
    mutating func pause() {
        nextReading = nil
    }

    /// Executes one command line.
    ///
    /// - Parameter line: A non-empty line, without its terminator.
    /// - Returns: The reply lines (one, or two for `ALARM:TEST`).
    mutating func execute(_ line: String, at now: ContinuousClock.Instant) -> [String] {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = parts.first else { return [] }
        let header = first.uppercased()
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil

        if argument != nil, Self.parameterless.contains(header) {
            return [Self.error(-108, "Parameter not allowed")]
        }
        switch (header, argument) {
        case ("*IDN?", nil): return [Self.identity]
        case ("TEMP?", nil):
            return [Self.fixed(climate.read(at: now, using: &random).temperature, 2)]
        case ("HUM?", nil): return [Self.fixed(climate.read(at: now, using: &random).humidity, 1)]
        case ("SETP?", nil): return [Self.fixed(climate.setpoint, 1)]
        case ("RATE?", nil): return [String(rate)]
        case ("ALARM?", nil): return [Self.fixed(alarmLimit, 1)]
        case ("SETP", let value?):
            return [set(value, in: Self.setpointRange) { $0.climate.setpoint = $1 }]
        case ("ALARM", let value?):
            return [set(value, in: Self.alarmRange) { $0.alarmLimit = $1 }]
        case ("RATE", let value?):
            return [setRate(value, at: now)]
        case ("SETP", nil), ("RATE", nil), ("ALARM", nil):
            return [Self.error(-109, "Missing parameter")]
        case ("ALARM:TEST", nil):
            let reading = climate.read(at: now, using: &random)
            return ["OK", alarm("test", reading)]
        default:
            return [Self.error(-113, "Undefined header")]
        }
    }

    /// The periodic reading that is due at `now`, plus an alarm if it crossed the limit.
    ///
    /// Schedules the next reading one interval after the one just made (or after `now`,
    /// if the simulator fell more than an interval behind).
    mutating func takeReading(at now: ContinuousClock.Instant) -> [String] {
        let reading = climate.read(at: now, using: &random)
        var lines = [
            "!READING temp=\(Self.fixed(reading.temperature, 2)) hum=\(Self.fixed(reading.humidity, 1))"
        ]
        if reading.temperature >= alarmLimit {
            if isAlarmArmed {
                lines.append(alarm("temp_high", reading))
            }
            isAlarmArmed = false
        } else {
            isAlarmArmed = true
        }
        if let due = nextReading, rate > 0 {
            let next = due + .milliseconds(rate)
            nextReading = next > now ? next : now + .milliseconds(rate)
        }
        return lines
    }

    /// Headers that take no parameter: `ERR -108` when one is given.
    private static let parameterless: Set<String> = [
        "*IDN?", "TEMP?", "HUM?", "SETP?", "RATE?", "ALARM?", "ALARM:TEST",
    ]

    private func alarm(_ kind: String, _ reading: ClimateModel.Reading) -> String {
        "!ALARM \(kind) temp=\(Self.fixed(reading.temperature, 2)) limit=\(Self.fixed(alarmLimit, 1))"
    }

    private mutating func set(
        _ text: String, in range: ClosedRange<Double>,
        apply: (inout EnvironmentState, Double) -> Void
    ) -> String {
        guard let value = Double(text), value.isFinite else {
            return Self.error(-104, "Data type error")
        }
        guard range.contains(value) else { return Self.error(-222, "Data out of range") }
        apply(&self, value)
        return "OK"
    }

    private mutating func setRate(_ text: String, at now: ContinuousClock.Instant) -> String {
        guard let value = Int(text) else { return Self.error(-104, "Data type error") }
        guard value == 0 || Self.rateRange.contains(value) else {
            return Self.error(-222, "Data out of range")
        }
        rate = value
        nextReading = value > 0 ? now + .milliseconds(value) : nil
        return "OK"
    }

    private static func error(_ code: Int, _ message: String) -> String {
        "ERR \(code),\"\(message)\""
    }

    private static func fixed(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
