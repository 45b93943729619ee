import Glibc
import Synchronization

/// Where a view writes its text: standard output, standard error, a file, or a
/// buffer in tests. Every `write` is passed on at once (no buffering), so a JSON line
/// reaches a pipe as soon as it is rendered.
public protocol OutputSink: Sendable {
    /// Writes `text` as UTF-8.
    func write(_ text: String)
    /// Writes bytes (UTF-8 text) as they are.
    func write(bytes: [UInt8])
    /// Whether the sink is a terminal (colour is used only then).
    var isTerminal: Bool { get }
}

extension OutputSink {
    public func write(bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }
}

/// A sink over an open file descriptor (`STDOUT_FILENO`, `STDERR_FILENO`, a file).
///
/// Output that cannot be written is never skipped silently: when `write(2)` fails
/// (disk full, an I/O error, a closed pipe with SIGPIPE ignored) the process ends
/// with exit code 74 (`EX_IOERR`) after one `Error:` line on standard error.
public struct FileSink: OutputSink {
    private let descriptor: Int32
    private let name: String
    public let isTerminal: Bool

    /// Standard output.
    public static let standardOutput = FileSink(descriptor: STDOUT_FILENO, name: "standard output")
    /// Standard error (diagnostics).
    public static let standardError = FileSink(descriptor: STDERR_FILENO, name: "standard error")

    /// Wraps the open file descriptor `descriptor`, called `name` in an error.
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        self.isTerminal = isatty(descriptor) == 1
    }

    public func write(_ text: String) {
        var text = text
        text.withUTF8 { writeAll($0) }
    }

    public func write(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { writeAll($0) }
    }

    private func writeAll(_ buffer: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written >= 0 {
                offset += written
            } else if errno != EINTR {
                fail(errno)
            }
        }
    }

    private func fail(_ code: Int32) -> Never {
        if descriptor != STDERR_FILENO {
            let message = "Error: cannot write to \(name): \(String(cString: strerror(code)))\n"
            _ = message.utf8CString.withUnsafeBufferPointer { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
        }
        exit(74)
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
