import CLibSerialPort
import Glibc

extension SerialPort {
    /// The port's file descriptor (`sp_get_port_handle`), for `poll(2)`; valid until
    /// ``close()``.
    public var descriptor: Int32 { handle.descriptor }

    /// Reads what is waiting with `sp_nonblocking_read`, without blocking; see
    /// ``SerialTransport/receive(into:)``.
    ///
    /// - Returns: the bytes read, or 0 when the device is gone (`EIO`, or a readable
    ///   descriptor with nothing to read); after that every call returns 0 at once.
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` on other failures
    ///   (`EBADF` once the port is closed).
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        if handle.isHungUp { return 0 }
        let count = try withOpenPort("sp_nonblocking_read") { (port) throws(SerialError) -> Int in
            do throws(SerialError) {
                return try check(
                    sp_nonblocking_read(port, buffer.baseAddress, buffer.count), function: "sp_nonblocking_read",
                    path: name)
            } catch .disconnected {
                return 0
            }
        }
        if count == 0 { handle.markHungUp() }
        return count
    }

    /// Writes what the line accepts now with `sp_nonblocking_write`; see
    /// ``SerialTransport/transmit(_:)``.
    ///
    /// - Returns: the number of bytes written, 0 when the output buffer is full.
    /// - Throws: ``SerialError/disconnected(path:)`` when the device is gone (`EIO`);
    ///   ``SerialError/io(path:function:errno:message:)`` otherwise.
    public func transmit(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int {
        guard !bytes.isEmpty else { return 0 }
        return try withOpenPort("sp_nonblocking_write") { (port) throws(SerialError) -> Int in
            do throws(SerialError) {
                return try check(
                    sp_nonblocking_write(port, bytes.baseAddress, bytes.count), function: "sp_nonblocking_write",
                    path: name)
            } catch .disconnected(let path) {
                handle.markHungUp()
                throw .disconnected(path: path)
            } catch .io(_, _, let code, _) where code == EAGAIN || code == EWOULDBLOCK {
                // libserialport 0.1.1 reports a full output buffer as a failure.
                return 0
            }
        }
    }

    /// Waits up to `timeout` ms for input and returns what has arrived.
    ///
    /// Waits with `poll(2)` on the port's descriptor (`sp_get_port_handle`) and on a
    /// self-pipe that ``close()`` writes to, then reads with `sp_nonblocking_read`.
    /// It never uses `sp_blocking_read`, which after a hang-up spins at 100 % CPU for
    /// its whole timeout, and forever with timeout 0 (fact 2). A wake-up with nothing
    /// to read, or `EIO`, is the end of the stream: the device hung up (pty master
    /// closed, USB adapter unplugged). That is remembered, so later reads return
    /// `.hungUp` at once instead of polling a dead descriptor in a loop.
    ///
    /// - Parameters:
    ///   - maxBytes: the most bytes to return (bytes), at least 1.
    ///   - timeout: how long to wait for the first byte, in ms; 0 only checks.
    /// - Returns: `.data` with 1...maxBytes bytes exactly as received (no
    ///   translation: NUL, CR, LF, 0x11 and 0x13 are data), `.timedOut`, or `.hungUp`
    ///   when the device is gone or the port was closed.
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` when `poll` or
    ///   `sp_nonblocking_read` fails for another reason.
    public func read(maxBytes: Int, timeout: Int) throws(SerialError) -> SerialReadResult {
        precondition(maxBytes > 0, "read(maxBytes:) needs room for at least one byte")
        if handle.isHungUp { return .hungUp }
        let deadline = Deadline(milliseconds: timeout)
        let result = try handle.withPort { (port) throws(SerialError) -> SerialReadResult in
            try receive(from: port, maxBytes: maxBytes, until: deadline)
        }
        return result ?? .hungUp
    }

    /// Writes all of `bytes`, waiting up to `timeout` ms for the line to take them.
    ///
    /// Writes with `sp_nonblocking_write` and, while the output buffer is full, waits
    /// for `POLLOUT` with `poll(2)` (never `sp_blocking_write`).
    ///
    /// - Parameters:
    ///   - bytes: the bytes to send, unchanged (no line-ending translation).
    ///   - timeout: the most time to wait for buffer space, in ms.
    /// - Throws: ``SerialError/disconnected(path:)`` when the device is gone (`EIO`);
    ///   ``SerialError/io(path:function:errno:message:)`` with `ETIMEDOUT` when the
    ///   deadline passed first, or `EBADF` when the port is or was closed meanwhile —
    ///   the message says how many bytes were written.
    public func write(_ bytes: [UInt8], timeout: Int) throws(SerialError) {
        let deadline = Deadline(milliseconds: timeout)
        var written = 0
        while written < bytes.count {
            let start = written
            written += try bytes.withUnsafeBytes { buffer in
                Result { () throws(SerialError) in try transmit(UnsafeRawBufferPointer(rebasing: buffer[start...])) }
            }.get()
            guard written < bytes.count else { return }
            switch try wait(for: POLLOUT, until: deadline) {
            case .ready:
                continue
            case .timedOut:
                throw .io(
                    path: name, function: "sp_nonblocking_write", errno: ETIMEDOUT,
                    message: "timed out after writing \(written) of \(bytes.count) bytes")
            case .closing:
                throw .io(
                    path: name, function: "sp_nonblocking_write", errno: EBADF,
                    message: "the port was closed after writing \(written) of \(bytes.count) bytes")
            }
        }
    }

    /// Runs `body` with the open port.
    ///
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` with `EBADF` naming
    ///   `function` if the port is closed, or what `body` throws.
    @discardableResult
    func withOpenPort<Result>(
        _ function: String, _ body: (OpaquePointer) throws(SerialError) -> Result
    ) throws(SerialError) -> Result {
        guard let result = try handle.withPort(body) else {
            throw .io(path: name, function: function, errno: EBADF, message: "the port is closed")
        }
        return result
    }

    private func receive(
        from port: OpaquePointer, maxBytes: Int, until deadline: Deadline
    ) throws(SerialError) -> SerialReadResult {
        switch try wait(for: POLLIN, until: deadline) {
        case .timedOut:
            return .timedOut
        case .closing:
            return .hungUp
        case .ready(let events):
            if events & Int16(POLLNVAL) != 0 {
                handle.markHungUp()
                return .hungUp
            }
            var buffer = [UInt8](repeating: 0, count: maxBytes)
            let count: Int
            do throws(SerialError) {
                count = try check(
                    sp_nonblocking_read(port, &buffer, maxBytes), function: "sp_nonblocking_read", path: name)
            } catch .disconnected {
                handle.markHungUp()
                return .hungUp
            }
            guard count > 0 else {
                // Readable, hung up or in error, yet nothing to read: end of stream.
                handle.markHungUp()
                return .hungUp
            }
            return .data(Array(buffer[..<count]))
        }
    }

    private enum Readiness {
        /// The port's descriptor reported these `poll` events.
        case ready(Int16)
        case timedOut
        /// ``close()`` has begun.
        case closing
    }

    /// `poll(2)` on the port's descriptor for `events` and on the close self-pipe.
    private func wait(for events: Int32, until deadline: Deadline) throws(SerialError) -> Readiness {
        while true {
            var descriptors = [
                pollfd(fd: handle.descriptor, events: Int16(events), revents: 0),
                pollfd(fd: handle.wakeDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let count = poll(&descriptors, 2, deadline.remainingMilliseconds)
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: name, function: "poll", errno: errno, message: String(cString: strerror(errno)))
            }
            if count == 0 { return .timedOut }
            if descriptors[1].revents != 0 { return .closing }
            return .ready(descriptors[0].revents)
        }
    }
}
