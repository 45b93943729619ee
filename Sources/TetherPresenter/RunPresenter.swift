import FoundationEssentials
import TetherModel

/// The presenter of a script run: one ``Presenter`` per device for its traffic, plus
/// the run's tally of expectations for the summary. A pure reducer like
/// ``Presenter``: no I/O, no clock, no formatting.
///
/// Records leave in time order. A device's events are stamped when its port loop
/// observes them and reach the run a moment later, while the script stamps its
/// records (`check`, `emit`) when it makes them; so an event that arrives after a
/// later-stamped run record takes that record's time (they happened within the
/// delivery's latency, a millisecond or so).
public struct RunPresenter: Sendable {
    private var devices: [String: Presenter]
    /// The time of the latest record returned: no record is stamped earlier.
    private var latestTime: Date?
    /// The tally so far; ``finish(outcome:unhandled:duration:at:)`` completes it.
    public private(set) var summary = RunSummary()

    /// Creates the presenter for a run over `devices`.
    ///
    /// - Parameters:
    ///   - devices: each device's name in the script (`nil` for the unnamed default
    ///     device) and its port name as shown to the user.
    ///   - facts: what is known of each device beforehand, in the order of `devices`
    ///     (none for a device past its end).
    public init(devices: [(name: String?, port: String)], facts: [DeviceFacts] = []) {
        self.devices = Dictionary(
            devices.enumerated().map { index, device in
                let known = facts.indices.contains(index) ? facts[index] : DeviceFacts()
                return (device.name ?? "", Presenter(port: device.port, device: device.name, facts: known))
            }, uniquingKeysWith: { $1 })
    }

    /// Applies one event of the device named `name` (`nil`: the unnamed default).
    ///
    /// - Returns: the records to render and that device's state after them; no
    ///   records for a device the run does not know.
    public mutating func handle(_ event: DeviceEvent, from name: String?) -> (records: [ViewRecord], state: ViewState?)
    {
        guard let index = devices.index(forKey: name ?? "") else { return ([], nil) }
        let time = inOrder(event.time)
        // Mutated in place: a copy taken out of the dictionary would copy the state's
        // arrays (readings, exchanges, alerts) at every event.
        let records = devices.values[index].handle(DeviceEvent(time: time, kind: event.kind))
        return (records, devices.values[index].state)
    }

    /// The state of the device named `name`, if the run has it.
    public func state(of name: String?) -> ViewState? { devices[name ?? ""]?.state }

    /// Counts `event` into the summary and returns its record.
    public mutating func handle(_ event: RunEvent, at time: Date) -> RunRecord {
        if case .checked(let result) = event {
            switch result.status {
            case .passed: summary.passed += 1
            case .failed: summary.failed += 1
            case .timedOut: summary.timedOut += 1
            case .notRun: summary.notRun += 1
            }
        }
        return RunRecord(time: inOrder(time), event: event)
    }

    /// `time`, or the latest record's when that is later; remembered as the latest.
    private mutating func inOrder(_ time: Date) -> Date {
        let time = max(time, latestTime ?? time)
        latestTime = time
        return time
    }

    /// Completes the summary.
    ///
    /// - Parameters:
    ///   - outcome: the run's overall result.
    ///   - unhandled: timeouts and error replies the script never looked at.
    ///   - duration: from the start of the run to now.
    ///   - time: when the run ended (the record's time).
    /// - Returns: the summary record.
    public mutating func finish(
        outcome: RunSummary.Outcome, unhandled: Int, duration: Duration, at time: Date
    ) -> RunRecord {
        summary.outcome = outcome
        summary.unhandled = unhandled
        summary.duration = duration
        return RunRecord(time: inOrder(time), event: .finished(summary))
    }
}
