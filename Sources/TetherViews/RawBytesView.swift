import TetherPresenter

/// Exactly the bytes received from the device, nothing else — no times, no records,
/// no sent bytes, no escaping — as picocom's `--logfile` and `cat` of the port give
/// them: `--log FILE --log-format raw` (`OutputFormat/raw`).
///
/// It asks for the byte stream (``showsReceivedBytes``) and writes each chunk read from
/// the port (a `ViewEvent/received(_:)` record, by either call) as it came; other
/// records are ignored.
public struct RawBytesView: DeviceView {
    let output: any OutputSink

    /// A view writing to `output`.
    public init(output: any OutputSink) {
        self.output = output
    }

    public var showsReceivedBytes: Bool { true }

    public func render(_ record: ViewRecord, state: ViewState) {
        if case .received(let bytes) = record.event { output.write(bytes: bytes) }
    }

    public func renderReceived(_ record: ViewRecord, bytes: [UInt8], state: ViewState) {
        render(record, state: state)
    }
}

extension OutputFormat {
    /// The received bytes alone (``RawBytesView``): a `--log` format, not one of
    /// `--format`'s (``all``), since it leaves out everything a command reports.
    package static let raw = OutputFormat(
        name: "raw", summary: "exactly the bytes received, nothing else", isForPrograms: false,
        eventLog: { RawBytesView(output: $0.output) })
}
