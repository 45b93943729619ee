import TetherModel

extension Presenter {
    /// Renders a device's events on `view` until the stream ends, then calls
    /// ``DeviceView/finish(_:)``.
    ///
    /// - Parameters:
    ///   - events: the device's events (``Device/events(_:)``), lossless for a view that must show everything.
    ///   - view: where records go; held only for the length of this call.
    ///   - observe: called after each record is rendered, with the record and the
    ///     new state — e.g. to count notifications or stop early.
    /// - Returns: the final state.
    public mutating func present(
        _ events: DeviceEvents, to view: any DeviceView,
        observe: (ViewRecord, ViewState) -> Void = { _, _ in }
    ) async -> ViewState {
        for await event in events {
            for record in handle(event) {
                view.render(record, state: state)
                observe(record, state)
            }
            view.stateDidChange(state)
        }
        view.finish(state)
        return state
    }
}
