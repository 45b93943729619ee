/// A byte pipe to a device: what the Model's port loop needs from a serial port.
///
/// ``SerialPort`` is the real implementation (libserialport); tests may provide a
/// scripted one over a pipe or a socket. The Model drives a transport from one
/// thread, its port loop: it `poll`s ``descriptor`` and calls ``receive(into:)`` and
/// ``transmit(_:)``, which never block. Other threads may call ``transmit(_:)`` while
/// the loop polls (the Model serialises the calls themselves). ``close()`` is called
/// once, by the thread that owns the transport, after its last read or write.
public protocol SerialTransport: AnyObject, Sendable {
    /// The port name as the user gave it (e.g. `/dev/serial/by-id/usb-…`), for display.
    var name: String { get }

    /// The file descriptor to `poll(2)` for `POLLIN` (input waiting, or hang-up with
    /// `POLLHUP`/`POLLERR`) and `POLLOUT` (room to write); valid until ``close()``. It
    /// may change between two polls (a transport with data it already holds can offer
    /// an always-readable descriptor), so read it before each one.
    var descriptor: Int32 { get }

    /// Reads what is waiting, without blocking.
    ///
    /// Call it only after `poll` reported ``descriptor`` readable (`POLLIN`, `POLLHUP`,
    /// `POLLERR` or `POLLNVAL`): a readable descriptor with nothing to read is the end
    /// of the stream.
    ///
    /// - Parameter buffer: where the bytes go, exactly as received (NUL, CR, LF, 0x11
    ///   and 0x13 are data).
    /// - Returns: the number of bytes read (1...`buffer.count`); 0 when the device is
    ///   gone (pty master closed, USB adapter unplugged, connection closed); or
    ///   ``SerialTransport/nothingReceived`` (−1) when what was read was all the
    ///   transport's own traffic (a telnet negotiation, an RFC 2217 notification): poll again.
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` on other failures.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int

    /// Writes as much of `bytes` as the line accepts now, without blocking.
    ///
    /// - Returns: how many bytes were written (0 when the output buffer is full, e.g.
    ///   held by XOFF or CTS, or a stalled receiver); wait for `POLLOUT` before
    ///   writing the rest.
    /// - Throws: ``SerialError/disconnected(path:)`` if the device is gone,
    ///   ``SerialError/io(path:function:errno:message:)`` on other failures.
    func transmit(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int

    /// What the port says about its serial settings since it was opened: the
    /// settings it has and each requested one it does not (see ``SettingsReport``).
    /// The default knows nothing (a byte pipe without serial settings).
    var settingsReport: SettingsReport { get }

    /// The line events (a break, a framing or parity error, a modem-line change) the
    /// last ``receive(into:)`` found, each placed among the bytes it returned; each is
    /// given once. Call it after every read, also one that returned
    /// ``SerialTransport/nothingReceived``. The default has none (a byte pipe without a UART).
    func takeLineEvents() -> [PlacedLineEvent]

    /// Closes the port; idempotent.
    func close()
}

extension SerialTransport {
    /// No line events: a byte pipe.
    public func takeLineEvents() -> [PlacedLineEvent] { [] }

    /// A report that knows nothing of the settings.
    public var settingsReport: SettingsReport { SettingsReport() }

    /// What ``SerialTransport/receive(into:)`` returns when the descriptor was readable
    /// but nothing in it is for the caller: −1 (a transport with a protocol layer, such
    /// as ``RFC2217Port``, read only its own traffic). Not the end of the stream (0).
    public static var nothingReceived: Int { -1 }
}
