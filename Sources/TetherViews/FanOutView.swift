import TetherPresenter

/// One view that passes every call to several views, in order (swift-log's
/// `MultiplexLogHandler` idea): the terminal's view and the `--log` file's JSON view
/// side by side, both seeing the same records.
///
/// A run's own records (`RunView`) go to the views that can show them.
public struct FanOutView: RunView {
    let views: [any DeviceView]

    /// Creates a view over `views`, called in this order.
    public init(_ views: [any DeviceView]) {
        self.views = views
    }

    public func render(_ record: ViewRecord, state: ViewState) {
        for view in views { view.render(record, state: state) }
    }

    public func renderReceived(_ record: ViewRecord, bytes: [UInt8], state: ViewState) {
        for view in views { view.renderReceived(record, bytes: bytes, state: state) }
    }

    public var showsReceivedBytes: Bool { views.contains { $0.showsReceivedBytes } }

    public func render(_ record: RunRecord) {
        for case let view as any RunView in views { view.render(record) }
    }

    public func stateDidChange(_ state: ViewState) {
        for view in views { view.stateDidChange(state) }
    }

    public func finish(_ state: ViewState) {
        for view in views { view.finish(state) }
    }

    /// Each view's batch around the next's, `render` innermost: every view holds its
    /// output for the whole batch.
    public func renderBatch(_ render: () -> Void) {
        func nested(_ index: Int) {
            guard index < views.count else { return render() }
            views[index].renderBatch { nested(index + 1) }
        }
        nested(0)
    }
}
