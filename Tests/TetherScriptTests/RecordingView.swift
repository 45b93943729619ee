import Synchronization
import TetherPresenter

/// A run view that keeps every record, for tests.
final class RecordingView: RunView {
    enum Entry: Sendable {
        case device(ViewRecord, ViewState)
        case run(RunRecord)
    }

    private let entries = Mutex<[Entry]>([])

    func render(_ record: ViewRecord, state: ViewState) { entries.withLock { $0.append(.device(record, state)) } }
    func render(_ record: RunRecord) { entries.withLock { $0.append(.run(record)) } }

    /// Every entry, in order.
    var all: [Entry] { entries.withLock { $0 } }

    /// The run's checks, in order.
    var checks: [CheckResult] {
        all.compactMap {
            if case .run(let record) = $0, case .checked(let result) = record.event { result } else { nil }
        }
    }

    /// The emitted values, in order.
    var emitted: [JSONValue] {
        all.compactMap {
            if case .run(let record) = $0, case .emitted(let value, _) = record.event { value } else { nil }
        }
    }

    /// The script errors.
    var problems: [ScriptProblem] {
        all.compactMap {
            if case .run(let record) = $0, case .scriptFailed(let problem) = record.event { problem } else { nil }
        }
    }

    /// The device events of the device named `name` (`nil`: unnamed), in order.
    func events(of name: String?) -> [ViewEvent] {
        all.compactMap {
            if case .device(let record, let state) = $0, state.device == name { record.event } else { nil }
        }
    }
}
