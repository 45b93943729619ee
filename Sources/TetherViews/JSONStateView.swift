import FoundationEssentials
import TetherPresenter

/// The live view for programs (`--format json --live`): a `state` record — a snapshot
/// of the whole `ViewState`, the same state the dashboard draws — each time the
/// state changes, at most ten a second, and the final state when the session ends.
/// Event records are not written. The record is documented in `docs/JSON.md`.
public final class JSONStateView: DeviceView {
    private let refresh: LiveRefresh

    /// Creates the view writing to `output`; `clock` stamps each record's `time`.
    public init(output: any OutputSink = FileSink.standardOutput, clock: @escaping @Sendable () -> Date = { Date() }) {
        let json = JSONView(output: output)
        refresh = LiveRefresh(idleTicks: nil) { state in json.write(JSONView.stateObject(state, time: clock())) }
    }

    public func render(_ record: ViewRecord, state: ViewState) {}

    public func stateDidChange(_ state: ViewState) { refresh.submit(state) }

    public func finish(_ state: ViewState) { refresh.finish(state) }
}
