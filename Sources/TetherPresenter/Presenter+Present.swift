import FoundationEssentials
import TetherModel

extension Presenter {
    /// Renders on `view` that the port does not exist yet and tether waits for it to
    /// appear (`--wait`), before the device has any event; the state is unchanged
    /// (`connecting`).
    ///
    /// - Parameters:
    ///   - port: the path as given, or `a port matching '…'` for `--match`.
    ///   - time: when the wait began.
    ///   - view: where the state is rendered.
    public func presentWaiting(for port: String, at time: Date = Date(), to view: any DeviceView) {
        view.render(ViewRecord(time: time, event: .waiting(for: port)), state: state)
    }

    /// Renders a device's events on `view` until the stream ends or `isDone` says so,
    /// then calls ``DeviceView/finish(_:)``. The events the device delivered together
    /// are rendered as one ``DeviceView/renderBatch(_:)``.
    ///
    /// - Parameters:
    ///   - events: the device's events (`Device.events(_:includesBytes:)`), lossless for a view that must show everything.
    ///   - view: where records go; held only for the length of this call.
    ///   - observe: called after each record is rendered, with the record and the
    ///     new state — e.g. to count notifications.
    ///   - isDone: asked after each record; `true` renders nothing more (`monitor
    ///     --count N` shows exactly N notifications, even when more arrived with them).
    /// - Returns: the final state.
    public mutating func present(
        _ events: DeviceEvents, to view: any DeviceView,
        observe: (ViewRecord, ViewState) -> Void = { _, _ in },
        until isDone: (ViewState) -> Bool = { _ in false }
    ) async -> ViewState {
        var iterator = events.makeAsyncIterator()
        var isOver = false
        while !isOver, let batch = await iterator.nextBatch() {
            view.renderBatch { isOver = render(batch, on: view, observe: observe, until: isDone) }
        }
        view.finish(state)
        return state
    }

    /// Renders one batch of events on `view`; returns whether `isDone` ended it. (A
    /// method of its own, so that the state is lent to the view and the observers
    /// as it is, not copied for each event, and each event is read where it lies.)
    private mutating func render(
        _ batch: [DeviceEvent], on view: any DeviceView, observe: (ViewRecord, ViewState) -> Void,
        until isDone: (ViewState) -> Bool
    ) -> Bool {
        for index in batch.indices {
            if let record = handleEvent(batch[index]) {
                show(record, on: view)
                observe(record, state)
                if isDone(state) {
                    view.stateDidChange(state)
                    return true
                }
            }
            view.stateDidChange(state)
        }
        return false
    }

    /// Renders `events` on `view` as they come, without finishing it: the records of a
    /// port that was opened and closed again before the device started
    /// (`--strict-settings`, see `DeviceEvent/opened(_:settings:as:)`).
    public mutating func present(_ events: [DeviceEvent], to view: any DeviceView) {
        for event in events {
            if let record = handleEvent(event) { show(record, on: view) }
        }
        view.stateDidChange(state)
    }

    /// Hands `record` to the view's callback for it.
    private func show(_ record: ViewRecord, on view: any DeviceView) {
        if case .received(let bytes) = record.event {
            view.renderReceived(record, bytes: bytes, state: state)
        } else {
            view.render(record, state: state)
        }
    }
}
