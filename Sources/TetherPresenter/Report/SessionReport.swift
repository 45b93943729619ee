import FoundationEssentials

/// What `tether report` shows of a recorded session: the records of a JSON Lines log
/// (docs/JSON.md, docs/SCRIPTING.md) gathered per device — each reading over time, the
/// round trips, a timeline of what happened — with a run's checks and summary. A pure
/// reducer: records go in with ``add(_:)`` in the log's order.
public struct SessionReport: Sendable {
    /// One value at one time.
    public struct Sample: Sendable, Equatable {
        /// When it came.
        public var time: Date
        /// The value: a reading's number, or a round trip in ms.
        public var value: Double
    }

    /// One moment of a device's timeline.
    public struct Event: Sendable, Equatable {
        /// What kind of moment it was.
        public enum Kind: String, Sendable, CaseIterable {
            /// A reply.
            case exchange
            /// An error reply.
            case error
            /// No reply in time.
            case timeout
            /// A request that failed otherwise (a hang-up, not sent).
            case failed
            /// A reply after its request timed out.
            case lateReply = "late reply"
            /// The device went away.
            case disconnected
            /// The port opened again.
            case reconnected
            /// A warning.
            case warning
        }

        /// When.
        public var time: Date
        /// What.
        public var kind: Kind
        /// The command or message, as the log has it.
        public var text: String
    }

    /// One device's part of the session.
    public struct DeviceReport: Sendable, Equatable {
        /// Its name: the run's name for it, else its port.
        public var name: String
        /// Each reading's samples by name, names in the order they first came.
        public var readings: [(name: String, samples: [Sample])] {
            readingNames.map { ($0, samples[$0] ?? []) }
        }
        /// Each reply's round trip, in ms.
        public var roundTrips: [Sample] = []
        /// Everything on its timeline, in order.
        public var events: [Event] = []
        /// Notifications received.
        public var notifications = 0
        private var readingNames: [String] = []
        private var samples: [String: [Sample]] = [:]

        init(name: String) { self.name = name }

        /// How many events of `kind` it had.
        public func count(_ kind: Event.Kind) -> Int { events.count { $0.kind == kind } }

        mutating func add(reading name: String, _ sample: Sample) {
            if samples[name] == nil { readingNames.append(name) }
            samples[name, default: []].append(sample)
        }
    }

    /// One `check` record.
    public struct Check: Sendable, Equatable {
        /// When the check was made.
        public var time: Date
        /// `passed`, `failed`, `timeout` or `not_run`.
        public var status: String
        /// `file:line`.
        public var place: String
        /// What the script said it checks.
        public var description: String
        /// The device the check was about, when the record names one.
        public var device: String?
        /// `expected …; got …`, when the record says and the check did not pass.
        public var detail: String?
    }

    /// The devices, in the order they first appear.
    public private(set) var devices: [DeviceReport] = []
    /// The run's checks, in order.
    public private(set) var checks: [Check] = []
    /// The run's `summary` record: its outcome and duration, if the log has one (the
    /// last, when a file holds several runs).
    public private(set) var outcome: (name: String, durationMilliseconds: Int)?
    /// The first record's time.
    public private(set) var start: Date?
    /// The last record's time.
    public private(set) var end: Date?
    /// The records read.
    public private(set) var records = 0
    /// The lines that were not a record with a known time (skipped).
    public private(set) var skipped = 0
    /// Where each device's report is in ``devices``, by name.
    private var deviceIndex: [String: Int] = [:]

    /// An empty report.
    public init() {}

    /// Counts a line that is not a JSON object.
    public mutating func skip() { skipped += 1 }

    /// Adds one record (a JSON object of the log).
    public mutating func add(_ record: [String: JSONValue]) {
        guard case .string(let type)? = record["type"], case .string(let stamp)? = record["time"],
            let time = Self.date(stamp)
        else {
            skipped += 1
            return
        }
        records += 1
        start = min(start ?? time, time)
        end = max(end ?? time, time)
        switch type {
        case "check":
            let file = record["file"]?.text ?? ""
            let place = record["line"].map { "\(file):\($0.text ?? "")" } ?? file
            var detail: [String] = []
            if let expected = record["expected"]?.text { detail.append("expected \(expected)") }
            if case .array(let actual)? = record["actual"] {
                detail.append("got " + actual.compactMap(\.text).joined(separator: " | "))
            }
            if let why = record["detail"]?.text { detail.append(why) }
            checks.append(
                Check(
                    time: time, status: record["status"]?.text ?? "", place: place,
                    description: record["description"]?.text ?? "", device: record["device"]?.text,
                    detail: detail.isEmpty || record["status"] == "passed" ? nil : detail.joined(separator: "; ")))
        case "summary":
            let milliseconds = if case .int(let value)? = record["duration_ms"] { value } else { 0 }
            outcome = (record["outcome"]?.text ?? "", milliseconds)
        default:
            guard let name = record["device"]?.text ?? record["port"]?.text else { return }
            let index =
                deviceIndex[name]
                ?? {
                    devices.append(DeviceReport(name: name))
                    deviceIndex[name] = devices.count - 1
                    return devices.count - 1
                }()
            // In place: a copy taken out and stored back would copy the device's arrays
            // on every record, and reading a log would cost the square of its length.
            Self.add(type, record, at: time, to: &devices[index])
        }
    }

    private static func add(_ type: String, _ record: [String: JSONValue], at time: Date, to device: inout DeviceReport)
    {
        let command = record["command"]?.text ?? ""
        switch type {
        case "reply":
            let isError = record["error"] == .bool(true)
            device.events.append(Event(time: time, kind: isError ? .error : .exchange, text: command))
            if let milliseconds = record["rtt_ms"]?.number {
                device.roundTrips.append(Sample(time: time, value: milliseconds))
            }
        case "timeout": device.events.append(Event(time: time, kind: .timeout, text: command))
        case "failed":
            device.events.append(
                Event(time: time, kind: .failed, text: command + ": " + (record["reason"]?.text ?? "")))
        case "late_reply": device.events.append(Event(time: time, kind: .lateReply, text: command))
        case "disconnected":
            device.events.append(Event(time: time, kind: .disconnected, text: record["reason"]?.text ?? ""))
        case "reconnected":
            device.events.append(Event(time: time, kind: .reconnected, text: record["settings"]?.text ?? ""))
        case "warning": device.events.append(Event(time: time, kind: .warning, text: record["message"]?.text ?? ""))
        case "notification":
            device.notifications += 1
            guard case .object(let readings)? = record["readings"] else { return }
            for (name, value) in readings.sorted(by: { $0.key < $1.key }) {
                if let number = value.number { device.add(reading: name, Sample(time: time, value: number)) }
            }
        default: break
        }
    }

    /// `2026-11-29T21:04:08.098Z` (JSON's `time`: UTC, milliseconds optional).
    static func date(_ text: String) -> Date? { ISO8601Date.parse(text) }
}

extension JSONValue {
    /// A string's text, or a number's.
    fileprivate var text: String? {
        switch self {
        case .string(let text): text
        case .int(let value): String(value)
        case .double(let value): String(value)
        default: nil
        }
    }

    /// A number's value, or a string's that is a number (`"5.00V"` is not).
    fileprivate var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .string(let text): Double(text).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }
}
