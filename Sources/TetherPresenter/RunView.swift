/// A view that can show a script run: device traffic through ``DeviceView`` and the
/// run's own records (expectations, emitted values, errors, the summary) here.
///
/// Records reach the view in the order they happened, from one thread at a time.
public protocol RunView: DeviceView {
    /// Shows one run record.
    func render(_ record: RunRecord)
}
