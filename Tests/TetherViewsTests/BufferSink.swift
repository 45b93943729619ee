import Synchronization
import TetherViews

/// A sink that keeps what is written, for the view tests.
final class BufferSink: OutputSink {
    private let buffer = Mutex("")
    let isTerminal: Bool

    /// Creates an empty buffer; `isTerminal` pretends to be a terminal.
    init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    func write(_ text: String) { buffer.withLock { $0 += text } }

    /// Everything written so far.
    var text: String { buffer.withLock { $0 } }
}
