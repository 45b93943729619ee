import Glibc

/// A self-pipe: one thread `poll`s ``readEnd`` beside its other descriptors, and any
/// thread wakes it with ``signal()`` (the classic way to interrupt `poll(2)`).
///
/// Both ends are non-blocking and close-on-exec. The owner calls ``close()`` once,
/// when no thread polls or signals any more.
public struct WakeUpPipe: Sendable {
    /// The end the waiting thread polls for `POLLIN`.
    public let readEnd: Int32
    /// The end ``signal()`` writes to.
    public let writeEnd: Int32

    /// Creates the pipe.
    ///
    /// - Parameter portName: names the port in the error.
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` naming `pipe` when the
    ///   process is out of descriptors.
    public init(for portName: String) throws(SerialError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .io(path: portName, function: "pipe", errno: errno, message: String(cString: strerror(errno)))
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
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

    /// Closes both ends.
    public func close() {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }
}
