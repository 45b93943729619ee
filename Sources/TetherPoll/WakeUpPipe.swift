import Glibc

/// A self-pipe: one thread `poll`s ``readEnd`` beside its other descriptors, and any
/// thread wakes it with ``signal()`` (the classic way to interrupt `poll(2)`).
///
/// Both ends are non-blocking and close-on-exec. The owner calls ``close()`` once,
/// when no thread polls or signals any more. The port loop (TetherModel's
/// `DeviceLoop`), a port's close (TetherSerial) and the simulator's serving thread
/// each own one.
public struct WakeUpPipe: Sendable {
    /// Why the pipe could not be made: the C function that failed and its `errno`
    /// (e.g. `pipe` with `EMFILE` when the process is out of descriptors).
    public struct CreationError: Error, Sendable, Equatable {
        /// The C function that failed: `pipe` or `fcntl`.
        public let function: String
        /// Its `errno`.
        public let errno: Int32
        /// `strerror(errno)`.
        public var message: String { String(cString: strerror(errno)) }
    }

    /// The end the waiting thread polls for `POLLIN`.
    public let readEnd: Int32
    /// The end ``signal()`` writes to.
    public let writeEnd: Int32

    /// Creates the pipe.
    ///
    /// - Throws: ``CreationError`` naming `pipe` (e.g. out of descriptors) or `fcntl`;
    ///   nothing is left open then.
    public init() throws(CreationError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw CreationError(function: "pipe", errno: errno) }
        for end in ends {
            guard fcntl(end, F_SETFD, FD_CLOEXEC) == 0, fcntl(end, F_SETFL, O_NONBLOCK) == 0 else {
                let error = CreationError(function: "fcntl", errno: errno)
                Glibc.close(ends[0])
                Glibc.close(ends[1])
                throw error
            }
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Makes ``readEnd`` readable; safe from any thread, never blocks (a full pipe is
    /// already readable).
    public func signal() {
        var byte: UInt8 = 1
        _ = Glibc.write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    public func drain() {
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        while withUnsafeMutableBytes(of: &bytes, { Glibc.read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Waits until the pipe is signalled or `milliseconds` pass, without draining it.
    ///
    /// - Parameter milliseconds: the longest wait, in ms; -1 waits without a limit
    ///   (`poll(2)`'s timeout).
    /// - Returns: `true` when the pipe is readable (signalled and not yet drained).
    @discardableResult
    public func wait(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Closes both ends.
    public func close() {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }
}
