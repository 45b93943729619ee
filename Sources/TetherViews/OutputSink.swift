import Foundation
import Synchronization

/// Where a view writes its text: standard output, standard error, a file, or a
/// buffer in tests. Every `write` is passed on at once (no buffering), so a JSON line
/// reaches a pipe as soon as it is rendered.
public protocol OutputSink: Sendable {
    /// Writes `text` as UTF-8.
    func write(_ text: String)
    /// Whether the sink is a terminal (colour is used only then).
    var isTerminal: Bool { get }
}

/// A sink over an open file descriptor (`STDOUT_FILENO`, `STDERR_FILENO`, a file).
public struct FileSink: OutputSink {
    private let handle: FileHandle
    public let isTerminal: Bool

    /// Standard output.
    public static let standardOutput = FileSink(FileHandle.standardOutput)
    /// Standard error (diagnostics).
    public static let standardError = FileSink(FileHandle.standardError)

    /// Wraps `handle`.
    public init(_ handle: FileHandle) {
        self.handle = handle
        self.isTerminal = isatty(handle.fileDescriptor) == 1
    }

    public func write(_ text: String) {
        try? handle.write(contentsOf: Data(text.utf8))
    }
}

/// A sink that keeps what is written, for tests.
public final class BufferSink: OutputSink {
    private let buffer = Mutex("")
    public let isTerminal: Bool

    /// Creates an empty buffer; `isTerminal` pretends to be a terminal.
    public init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    public func write(_ text: String) { buffer.withLock { $0 += text } }

    /// Everything written so far.
    public var text: String { buffer.withLock { $0 } }
}
