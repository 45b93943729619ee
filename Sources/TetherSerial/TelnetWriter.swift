/// The sending side of telnet (RFC 854): data with every 0xFF doubled (`IAC IAC`),
/// and commands queued between data writes, over a socket that may take only part
/// of what it is given.
///
/// When the socket takes the first 0xFF of an `IAC IAC` pair but not the second, the
/// data byte is not counted as sent, and the half-sent `IAC` is completed before
/// anything else goes out: by the second 0xFF when the caller offers a 0xFF data byte
/// next (the usual case: it offers again what was not taken), which is then sent; by
/// `NOP` before a command or other data (`IAC NOP` means nothing). So the stream never
/// holds a torn command, whatever the caller sends next, and every byte the socket
/// takes is progress — a socket that takes one byte per write still gets a 0xFF
/// through (`TelnetWriterTests`).
struct TelnetWriter {
    /// Writes bytes without blocking; returns how many were taken (0: none, full).
    typealias Write = (UnsafeRawBufferPointer) throws(SerialError) -> Int

    private var commands: [UInt8] = []
    private var owesCommandByte = false
    private var escaped: [UInt8] = []

    /// Whether commands are waiting to go out.
    var hasPendingCommands: Bool { owesCommandByte || !commands.isEmpty }

    /// The most command bytes waiting to go out (4096: over a thousand negotiation
    /// replies), so a server that keeps negotiating and never reads cannot make the
    /// queue grow for ever.
    static let maximumQueuedCommands = 4096

    /// Queues a command (already framed, e.g. `IAC DO 0`), to go out before more data.
    ///
    /// - Returns: `false`, queueing nothing, when that would hold more than
    ///   ``maximumQueuedCommands`` bytes.
    mutating func queue(command bytes: [UInt8]) -> Bool {
        guard commands.count + bytes.count <= Self.maximumQueuedCommands else { return false }
        commands += bytes
        return true
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
        if owesCommandByte, commands.isEmpty, data.first == Telnet.iac {
            // The second half of the pair: that data 0xFF goes out whole.
            let taken = try [Telnet.iac].withBytes { (iac) throws(SerialError) in try write(iac) }
            guard taken == 1 else { return 0 }
            owesCommandByte = false
            return 1
        }
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
