/// The sending side of telnet (RFC 854): data with every 0xFF doubled (`IAC IAC`),
/// and commands queued between data writes, over a socket that may take only part
/// of what it is given.
///
/// When the socket takes the first 0xFF of an `IAC IAC` pair but not the second, the
/// data byte is not counted as sent, and the half-sent `IAC` is completed with `NOP`
/// before anything else goes out (`IAC NOP` means nothing); the caller sends the 0xFF
/// again with the rest. So the stream never holds a torn command, whatever the caller
/// sends next.
struct TelnetWriter {
    /// Writes bytes without blocking; returns how many were taken (0: none, full).
    typealias Write = (UnsafeRawBufferPointer) throws(SerialError) -> Int

    private var commands: [UInt8] = []
    private var owesCommandByte = false
    private var escaped: [UInt8] = []

    /// Whether commands are waiting to go out.
    var hasPendingCommands: Bool { owesCommandByte || !commands.isEmpty }

    /// Queues a command (already framed, e.g. `IAC DO 0`), to go out before more data.
    mutating func queue(command bytes: [UInt8]) {
        commands += bytes
    }

    /// Writes the queued commands.
    ///
    /// - Returns: whether all went out.
    mutating func flushCommands(through write: Write) throws(SerialError) -> Bool {
        if owesCommandByte {
            let taken = try [Telnet.nop].withBytes { (nop) throws(SerialError) in try write(nop) }
            guard taken == 1 else { return false }
            owesCommandByte = false
        }
        guard !commands.isEmpty else { return true }
        let taken = try commands.withBytes { (all) throws(SerialError) in try write(all) }
        commands.removeFirst(taken)
        return commands.isEmpty
    }

    /// Writes data, 0xFF doubled, after any queued commands.
    ///
    /// - Returns: how many bytes of `data` went out (0 when none could).
    mutating func transmit(_ data: UnsafeRawBufferPointer, through write: Write) throws(SerialError) -> Int {
        guard try flushCommands(through: write), !data.isEmpty else { return 0 }
        guard data.contains(Telnet.iac) else { return try write(data) }
        escaped.removeAll(keepingCapacity: true)
        for byte in data {
            escaped.append(byte)
            if byte == Telnet.iac { escaped.append(byte) }
        }
        let written = try escaped.withBytes { (all) throws(SerialError) in try write(all) }
        var out = 0
        var taken = 0
        for byte in data {
            let width = byte == Telnet.iac ? 2 : 1
            guard out + width <= written else {
                owesCommandByte = out < written
                break
            }
            out += width
            taken += 1
        }
        return taken
    }
}
