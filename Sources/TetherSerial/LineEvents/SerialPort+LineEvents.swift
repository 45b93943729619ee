import Glibc
import Synchronization

/// What a local port keeps to report its line conditions: the `PARMRK` decoding (when
/// the marking is on) and the events found in the last read.
struct ReceivedConditions: Sendable {
    /// The decoding, or `nil` when the line discipline does not mark (the termios
    /// read-back after the open found `PARMRK` clear).
    var input: MarkedInput?
    /// The events of the last read, not yet taken.
    var events: [PlacedLineEvent] = []
}

extension SerialPort {
    /// Turns on the marking of breaks, framing and parity errors in the received bytes
    /// (`PARMRK` and `INPCK` set; `IGNBRK`, `BRKINT` and `IGNPAR` clear: libserialport
    /// sets `IGNPAR` for parity none, which drops a character with a framing error
    /// unseen) and reads the flags back.
    ///
    /// - Returns: whether `PARMRK` is on now (a terminal that refuses it is used
    ///   without the marking: breaks then arrive as 0x00, as before).
    /// - Throws: ``SerialError`` naming `tcgetattr` or `tcsetattr` when a call fails.
    static func markLineConditions(_ descriptor: Int32, name: String) throws(SerialError) -> Bool {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            throw SerialError.fromErrno(errno, path: name, function: "tcgetattr")
        }
        settings.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | IGNPAR | ISTRIP)
        settings.c_iflag |= tcflag_t(PARMRK | INPCK)
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else {
            throw SerialError.fromErrno(errno, path: name, function: "tcsetattr")
        }
        var check = termios()
        guard tcgetattr(descriptor, &check) == 0 else {
            throw SerialError.fromErrno(errno, path: name, function: "tcgetattr")
        }
        return check.c_iflag & tcflag_t(PARMRK) != 0 && check.c_iflag & tcflag_t(ISTRIP) == 0
    }

    /// The breaks and framing or parity errors found in the bytes the last
    /// ``receive(into:)`` returned, each placed among them; each is given once.
    public func takeLineEvents() -> [PlacedLineEvent] {
        conditions.withLock { conditions in
            guard !conditions.events.isEmpty else { return [] }
            defer { conditions.events.removeAll() }
            return conditions.events
        }
    }

    /// Reads with `read` into `buffer` and takes the `PARMRK` marking out: data bytes
    /// stay in `buffer`, conditions go to ``takeLineEvents()``.
    ///
    /// - Returns: the data bytes now in `buffer`; ``SerialTransport/nothingReceived``
    ///   when the read held only markings; 0 at the end of the stream.
    func receiveMarked(
        into buffer: UnsafeMutableRawBufferPointer,
        using read: (UnsafeMutableRawBufferPointer) throws(SerialError) -> Int
    ) throws(SerialError) -> Int {
        // The port loop alone reads: the lock is uncontended, taken once per read.
        try conditions.withLock { (conditions) throws(SerialError) -> Int in
            guard var input = conditions.input else { return try read(buffer) }
            // A `\377` held from the last read may need one byte of room (``MarkedInputDecoder``).
            let keepsRoom = buffer.count > 1 && input.holdsPartialMark
            let count = try read(
                keepsRoom ? UnsafeMutableRawBufferPointer(rebasing: buffer[..<(buffer.count - 1)]) : buffer)
            let (data, events) = input.decode(buffer, count: count)
            conditions.input = input
            if !events.isEmpty { conditions.events += events }
            return data
        }
    }
}
