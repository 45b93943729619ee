/// A passive view of a device session (MVP's View, written as a delegate protocol).
///
/// The presenter calls ``render(_:state:)`` for every record, in order, from one task
/// at a time — ``renderReceived(_:bytes:state:)`` for received bytes.
/// ``renderReceived(_:bytes:state:)``, ``stateDidChange(_:)`` and ``finish(_:)`` are
/// optional: their defaults do nothing; ``showsReceivedBytes`` defaults to `false`.
///
/// No reference cycle is possible: ``Presenter`` is a value that never holds a view,
/// and ``Presenter/present(_:to:)`` holds the view only for the length of the call;
/// views hold no reference to presenters or devices.
public protocol DeviceView: Sendable {
    /// Shows one record. `state` is the state after it.
    func render(_ record: ViewRecord, state: ViewState)
    /// Shows bytes read from the port (a ``ViewEvent/received(_:)`` record), for a view
    /// that shows the raw stream; the default ignores them.
    func renderReceived(_ record: ViewRecord, bytes: [UInt8], state: ViewState)
    /// Whether the view shows the byte stream, so the bytes read must reach it whatever
    /// the command (a transcript: the session's lines leave out blank lines, which are
    /// framing).
    var showsReceivedBytes: Bool { get }
    /// Called after each record with the new state (a dashboard redraws here).
    func stateDidChange(_ state: ViewState)
    /// Called once when the session is over.
    func finish(_ state: ViewState)
    /// Renders one batch of records: `render` makes the ``render(_:state:)`` (and
    /// other) calls of the events a device delivered together, one turn of its port
    /// loop (``Presenter/present(_:to:observe:until:)``). A view may hold what it
    /// writes meanwhile and write it at the end, whole records only — one `write(2)`
    /// for many records instead of one each; the default just calls `render`.
    func renderBatch(_ render: () -> Void)
}

extension DeviceView {
    public func renderReceived(_ record: ViewRecord, bytes: [UInt8], state: ViewState) {}
    public var showsReceivedBytes: Bool { false }
    public func stateDidChange(_ state: ViewState) {}
    public func finish(_ state: ViewState) {}
    public func renderBatch(_ render: () -> Void) { render() }
}
