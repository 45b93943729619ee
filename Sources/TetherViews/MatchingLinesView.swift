import TetherPresenter

/// A view that shows only the received lines a test lets through (`monitor --only`):
/// notifications and pending text whose line fails it are not passed on; every other
/// record (connection, warnings, exchanges) is.
public struct MatchingLinesView: DeviceView {
    let view: any DeviceView
    let isShown: @Sendable (ViewLine) -> Bool

    /// Creates a view that passes to `view` the records it shows.
    ///
    /// - Parameters:
    ///   - view: the view the shown records go to.
    ///   - isShown: whether a received line (or pending text) is shown.
    public init(_ view: any DeviceView, showing isShown: @escaping @Sendable (ViewLine) -> Bool) {
        self.view = view
        self.isShown = isShown
    }

    public func render(_ record: ViewRecord, state: ViewState) {
        switch record.event {
        case .notification(let line, _), .pendingText(let line):
            guard isShown(line) else { return }
        default:
            break
        }
        view.render(record, state: state)
    }

    public func renderReceived(_ record: ViewRecord, bytes: [UInt8], state: ViewState) {
        view.renderReceived(record, bytes: bytes, state: state)
    }

    public var showsReceivedBytes: Bool { view.showsReceivedBytes }

    public func stateDidChange(_ state: ViewState) { view.stateDidChange(state) }

    public func finish(_ state: ViewState) { view.finish(state) }

    public func renderBatch(_ render: () -> Void) { view.renderBatch(render) }
}
