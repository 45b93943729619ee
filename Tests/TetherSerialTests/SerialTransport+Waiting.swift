import Glibc

@testable import TetherSerial

/// What one ``SerialTransport/read(maxBytes:timeout:)`` got.
enum SerialReadResult: Equatable {
    /// Bytes received, in order, never empty.
    case data([UInt8])
    /// Nothing arrived within the timeout.
    case timedOut
    /// The device hung up.
    case hungUp
}

/// Waiting reads and writes for the tests, made of what the Model's port loop does:
/// `poll(2)` on ``SerialTransport/descriptor``, then ``SerialTransport/receive(into:)``
/// or ``SerialTransport/transmit(_:)``. So the tests drive the transport's real path.
extension SerialTransport {
    /// Waits up to `timeout` ms for input and returns what has arrived (at most
    /// `maxBytes` bytes).
    func read(maxBytes: Int, timeout: Int) throws(SerialError) -> SerialReadResult {
        let deadline = Deadline(milliseconds: timeout)
        var buffer = [UInt8](repeating: 0, count: maxBytes)
        while try wait(for: POLLIN, until: deadline) {
            let count = try buffer.withUnsafeMutableBytes { all in
                Result { () throws(SerialError) in try receive(into: all) }
            }.get()
            if count == Self.nothingReceived { continue }
            return count == 0 ? .hungUp : .data(Array(buffer[..<count]))
        }
        return .timedOut
    }

    /// Writes all of `bytes`, waiting up to `timeout` ms for room.
    ///
    /// - Throws: what ``SerialTransport/transmit(_:)`` throws, or `ETIMEDOUT` naming
    ///   how many bytes were written.
    func write(_ bytes: [UInt8], timeout: Int) throws(SerialError) {
        let deadline = Deadline(milliseconds: timeout)
        var written = 0
        while written < bytes.count {
            let start = written
            written += try bytes.withUnsafeBytes { all in
                Result { () throws(SerialError) in try transmit(UnsafeRawBufferPointer(rebasing: all[start...])) }
            }.get()
            if written < bytes.count, try !wait(for: POLLOUT, until: deadline) {
                throw .io(
                    path: name, function: "transmit", errno: ETIMEDOUT,
                    message: "timed out after writing \(written) of \(bytes.count) bytes")
            }
        }
    }

    /// `poll(2)` for `events` until `deadline`: whether the descriptor became ready.
    private func wait(for events: Int32, until deadline: Deadline) throws(SerialError) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(events), revents: 0)
        while true {
            let count = poll(&entry, 1, deadline.remainingMilliseconds)
            if count >= 0 { return count > 0 }
            if errno != EINTR {
                throw .io(path: name, function: "poll", errno: errno, message: String(cString: strerror(errno)))
            }
        }
    }
}
