import CLibSerialPort
import Glibc

extension SerialPort {
    /// The port's file descriptor (`sp_get_port_handle`), for `poll(2)`; valid until
    /// ``close()``.
    public var descriptor: Int32 { handle.descriptor }

    /// Reads what is waiting with `sp_nonblocking_read`, without blocking; see
    /// ``SerialTransport/receive(into:)``.
    ///
    /// Breaks and framing or parity errors are taken out of the bytes (the `PARMRK`
    /// marking) and given by ``takeLineEvents()``; a 0xFF data byte stays one 0xFF.
    ///
    /// - Returns: the bytes read, ``SerialTransport/nothingReceived`` when the read held
    ///   only a break or an errored byte, or 0 when the device is gone (`EIO`, or a readable
    ///   descriptor with nothing to read); after that every call returns 0 at once.
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` on other failures
    ///   (`EBADF` once the port is closed).
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        if handle.isHungUp { return 0 }
        let count = try receiveMarked(into: buffer) { (buffer) throws(SerialError) -> Int in
            try withOpenPort("sp_nonblocking_read") { (port) throws(SerialError) -> Int in
                do throws(SerialError) {
                    return try check(
                        sp_nonblocking_read(port, buffer.baseAddress, buffer.count), function: "sp_nonblocking_read",
                        path: name)
                } catch .disconnected {
                    return 0
                }
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
}
