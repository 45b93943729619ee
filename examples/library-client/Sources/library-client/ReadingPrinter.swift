import TetherPresenter

/// A view of this program's own: one line per reading of a notification, and the
/// replies to commands. The presenter calls it with each record and the state after it.
struct ReadingPrinter: DeviceView {
    func render(_ record: ViewRecord, state: ViewState) {
        switch record.event {
        case .exchanged(let exchange):
            if case .reply(let lines, _, let isError, _) = exchange.outcome {
                let reply = lines.map(\.text).joined(separator: " | ")
                print("\(exchange.command) -> \(reply)\(isError ? " (error)" : "")")
            }
        case .notification(_, let readings):
            for reading in readings {
                print("reading \(reading.name) = \(reading.value)\(reading.unit.map { " \($0)" } ?? "")")
            }
        default:
            break
        }
    }
}
