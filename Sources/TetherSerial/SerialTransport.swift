/// A byte pipe to a device: what the Model needs from a serial port.
///
/// ``SerialPort`` is the real implementation (libserialport); tests may provide a
/// scripted one. All calls block the calling thread and must be made from a
/// dedicated thread, never from Swift's cooperative pool. `read` and `write` may be
/// called concurrently from two threads; `close` may be called from any thread and
/// makes a blocked `read` return promptly.
public protocol SerialTransport: AnyObject, Sendable {
    /// The port name as the user gave it (e.g. `/dev/serial/by-id/usb-…`), for display.
    var name: String { get }

    /// Waits up to `timeout` milliseconds for input and returns what is available.
    ///
    /// - Parameters:
    ///   - maxBytes: the most bytes to return (bytes).
    ///   - timeout: how long to wait for the first byte, in ms; 0 only checks what is
    ///     waiting.
    /// - Returns: `.data` with 1...maxBytes bytes, `.timedOut` when nothing arrived,
    ///   or `.hungUp` when the device is gone (pty master closed, USB unplugged) or
    ///   the port was closed. After `.hungUp` every later read returns `.hungUp` at once.
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` on other failures.
    func read(maxBytes: Int, timeout: Int) throws(SerialError) -> SerialReadResult

    /// Writes all of `bytes`, waiting up to `timeout` ms for the line to accept them.
    ///
    /// - Throws: ``SerialError/disconnected(path:)`` if the device is gone,
    ///   ``SerialError/io(path:function:errno:message:)`` if the bytes could not all
    ///   be written in time (the message says how many were).
    func write(_ bytes: [UInt8], timeout: Int) throws(SerialError)

    /// Closes the port; idempotent. A `read` blocked on another thread returns
    /// `.hungUp`.
    func close()
}

/// The outcome of one ``SerialTransport/read(maxBytes:timeout:)``.
public enum SerialReadResult: Sendable, Equatable {
    /// Bytes received, in order, never empty.
    case data([UInt8])
    /// Nothing arrived within the timeout.
    case timedOut
    /// The device hung up or the port was closed.
    case hungUp
}
