import Synchronization
import TetherPresenter

/// A view that keeps every record it renders (a `--log` file's view in tests).
final class RecordingView: DeviceView {
    private let records = Mutex<[ViewRecord]>([])

    var rendered: [ViewEvent] { records.withLock { $0.map(\.event) } }

    func render(_ record: ViewRecord, state: ViewState) {
        records.withLock { $0.append(record) }
    }
}
