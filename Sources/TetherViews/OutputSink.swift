import Glibc
import Synchronization

/// Where a view writes its text: standard output, standard error, a file, or a
/// buffer in tests. Every `write` is passed on at once (no buffering), so a JSON line
/// reaches a pipe as soon as it is rendered; a view that renders a batch of records
/// holds them in a `BatchingSink` in front of its sink until the batch ends.
public protocol OutputSink: Sendable {
    /// Writes `text` as UTF-8.
    func write(_ text: String)
    /// Writes bytes (UTF-8 text) as they are.
    func write(bytes: [UInt8])
    /// Whether the sink is a terminal (colour is used only then).
    var isTerminal: Bool { get }
    /// The terminal's width in columns, when the sink is a terminal that says; `nil`
    /// otherwise (the default).
    var columns: Int? { get }
}

extension OutputSink {
    public func write(bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }
    public var columns: Int? { nil }
}

/// A sink over an open file descriptor (`STDOUT_FILENO`, `STDERR_FILENO`, a file),
/// written with `write(2)`: no Foundation, no `Data` copy.
public struct FileSink: OutputSink {
    private let descriptor: Int32
    private let name: String
    private let endsOnFailure: Bool
    private let failure: WriteFailure?
    public let isTerminal: Bool

    /// Standard output. A write that fails (a full disk, `/dev/full`, an I/O error)
    /// ends the process with `EX_IOERR` (74) after a one-line message on standard
    /// error: output that cannot be written must not be lost silently. A closed pipe
    /// ends it by `SIGPIPE` (141) before the write returns.
    public static let standardOutput = FileSink(
        descriptor: STDOUT_FILENO, name: "standard output", endsOnFailure: true)
    /// Standard error (diagnostics); a failed write is ignored, as there is nowhere
    /// left to report it.
    public static let standardError = FileSink(descriptor: STDERR_FILENO, name: "standard error")

    /// Wraps the open file descriptor `descriptor`, called `name` in an error.
    ///
    /// - Parameters:
    ///   - descriptor: an open file descriptor, written with `write(2)`; not closed by the sink.
    ///   - name: the name an error message gives it, e.g. `standard output`.
    ///   - endsOnFailure: whether a failed write ends the process with exit
    ///     code 74 (`EX_IOERR`) after a message on standard error; otherwise it is ignored.
    public init(descriptor: Int32, name: String, endsOnFailure: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.endsOnFailure = endsOnFailure
        self.failure = nil
        self.isTerminal = isatty(descriptor) == 1
    }

    /// Wraps `descriptor`; the first write that fails calls `onFailure` with
    /// `strerror` of its errno (e.g. `No space left on device`), once, and every write
    /// after it is dropped — for a caller that ends its session in order (a `--log`
    /// file beside a terminal that must be put back). A file whose last link was
    /// removed (`rm` while tether writes it) fails its next write the same way, with
    /// `the file was deleted`, and that write is not made: records written to a file
    /// nobody can open again would be lost without a word.
    public init(descriptor: Int32, name: String, onFailure: @escaping @Sendable (String) -> Void) {
        self.descriptor = descriptor
        self.name = name
        self.endsOnFailure = false
        self.failure = WriteFailure(onFailure)
        self.isTerminal = isatty(descriptor) == 1
    }

    public func write(_ text: String) {
        var text = text
        text.withUTF8 { writeAll($0) }
    }

    public func write(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { writeAll($0) }
    }

    /// The terminal's width (`TIOCGWINSZ`), read at each call so a resize is followed.
    public var columns: Int? {
        guard isTerminal else { return nil }
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Writes all of `buffer` with `write(2)`, retrying after `EINTR` and waiting for
    /// `POLLOUT` after `EAGAIN`; a failure is handled as ``init(descriptor:name:endsOnFailure:)`` says.
    ///
    /// A record is written whole or not at all to a regular file: when a write fails
    /// after part of `buffer` went in (the disk filled mid-record), the file is cut back
    /// to where the record began, so it ends with the last whole record. (Another
    /// process appending to the same file at that moment would lose its bytes too.)
    private func writeAll(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress, failure?.hasFailed != true else { return }
        if let failure, isDeleted {
            failure.report("the file was deleted")
            return
        }
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else if written < 0, errno == EAGAIN {
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
            } else {
                let code = written == 0 ? EIO : errno
                if offset > 0 { removeWritten(offset) }
                fail(errno: code)
                return
            }
        }
    }

    /// Whether the descriptor is a file no directory links to any more (`st_nlink` 0).
    private var isDeleted: Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && status.st_nlink == 0
    }

    /// Cuts the last `count` bytes written off a regular file (the start of a record
    /// that could not be finished); a pipe or terminal is left as it is.
    private func removeWritten(_ count: Int) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) >= count
        else { return }
        _ = ftruncate(descriptor, status.st_size - off_t(count))
    }

    private func fail(errno code: Int32) {
        failure?.report(String(cString: strerror(code)))
        guard endsOnFailure else { return }
        FileSink.standardError.write("Error: cannot write to \(name): \(String(cString: strerror(code)))\n")
        exit(74)
    }
}

/// A ``FileSink``'s failure handler, called for the first failed write only.
private final class WriteFailure: Sendable {
    private let handler: @Sendable (String) -> Void
    private let failed = Mutex(false)

    init(_ handler: @escaping @Sendable (String) -> Void) { self.handler = handler }

    /// Whether a write has failed.
    var hasFailed: Bool { failed.withLock { $0 } }

    /// Calls the handler with `reason` unless a write failed before.
    func report(_ reason: String) {
        let isFirst = failed.withLock { failed in
            defer { failed = true }
            return !failed
        }
        if isFirst { handler(reason) }
    }
}
