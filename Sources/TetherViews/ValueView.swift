import TetherPresenter

/// The view of `query --value`, for shell scripts (docs/SCRIPTS.md): each reply's text
/// alone on standard output, one line per reply line (a multi-line reply gives several
/// lines, an AT reply its information lines without the final `OK`), and nothing else
/// there. Everything else — notifications, an error reply, a timeout, a failure, the
/// informational lines — goes to standard error as the text view writes it, so
/// `r=$(tether query PORT --value 'TEMP?')` holds `21.78` and the exit code says
/// whether it is a reply.
public struct ValueView: DeviceView {
    let values: BatchingSink
    let others: TextView

    /// - Parameters:
    ///   - values: where reply texts go (standard output).
    ///   - others: what renders the rest (a ``TextView`` on standard error).
    public init(values: any OutputSink = FileSink.standardOutput, others: TextView) {
        self.values = BatchingSink(values)
        self.others = others
    }

    public func render(_ record: ViewRecord, state: ViewState) {
        guard case .exchanged(let exchange) = record.event,
            case .reply(let lines, _, let isError, _) = exchange.outcome, !isError
        else {
            // The other stream's lines keep their place where the two meet (`2>&1`).
            values.flush()
            return others.render(record, state: state)
        }
        values.write(lines.map { ByteEscaping.escaped($0.bytes, escapesBackslash: false) + "\n" }.joined())
    }

    public func finish(_ state: ViewState) {
        values.flush()
        others.finish(state)
    }

    public func renderBatch(_ render: () -> Void) {
        values.batch { others.renderBatch(render) }
    }
}
