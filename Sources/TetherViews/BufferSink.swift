import Synchronization

/// A sink that keeps what is written in memory: for rendering a view into a string
/// (the view tests, and the `views` fuzz target in Fuzz/Targets, which check what a
/// view wrote).
public final class BufferSink: OutputSink {
    private let buffer = Mutex("")
    /// Whether the sink pretends to be a terminal (colour, in-place redraws).
    public let isTerminal: Bool

    /// Creates an empty buffer; `isTerminal` pretends to be a terminal.
    public init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    /// Appends `text`.
    public func write(_ text: String) { buffer.withLock { $0 += text } }

    /// Everything written so far, as one string.
    public var text: String { buffer.withLock { $0 } }
}
