import Glibc

/// A self-pipe that wakes the serving thread out of `poll` (used by ``Simulator/stop()``).
struct WakeUpPipe: Sendable {
    /// The end the serving thread polls.
    let readEnd: Int32
    /// The end other threads write to.
    let writeEnd: Int32

    /// Creates a non-blocking, close-on-exec pipe.
    ///
    /// - Throws: ``SimulatorError`` `.wakeUpPipeFailed` with the errno of `pipe`.
    init() throws(SimulatorError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw SimulatorError(.wakeUpPipeFailed, "cannot create a pipe", osError: errno)
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Makes the read end readable; safe from any thread, never blocks.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Waits until the pipe is signalled or `milliseconds` pass (-1: no limit).
    ///
    /// - Returns: `true` when woken by ``signal()``.
    @discardableResult
    func wait(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Closes both ends.
    func close() {
        Glibc.close(readEnd)
        Glibc.close(writeEnd)
    }
}
