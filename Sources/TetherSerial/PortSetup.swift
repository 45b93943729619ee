/// What an open applies to a port, locally or over RFC 2217: the serial settings, DTR
/// and RTS, then a DTR pulse and a break when asked.
public struct PortSetup: Sendable {
    /// Baud rate, data bits, parity, stop bits, flow control.
    public var configuration: SerialConfiguration
    /// DTR (`.keep` leaves it as it is).
    public var dtr: SerialPort.LineControl
    /// RTS (`.keep` leaves it as it is).
    public var rts: SerialPort.LineControl
    /// DTR off time of a reset pulse after the open, in ms (none when nil).
    public var pulseDTR: Int?
    /// Length of a break after the open, in ms (none when nil).
    public var breakLength: Int?

    /// Creates a setup; see the properties for each value.
    public init(
        configuration: SerialConfiguration, dtr: SerialPort.LineControl = .keep,
        rts: SerialPort.LineControl = .keep, pulseDTR: Int? = nil, breakLength: Int? = nil
    ) {
        self.configuration = configuration
        self.dtr = dtr
        self.rts = rts
        self.pulseDTR = pulseDTR
        self.breakLength = breakLength
    }
}

extension PortAddress {
    /// Opens the port at this address as `setup` says: a device node with exclusive
    /// access (``SerialPort/open(_:setup:)``), through `links` so that a stale link to a
    /// pty is not reopened (``PseudoTerminalLinkWatch``); `rfc2217://` through RFC 2217
    /// (``RFC2217Port/open(_:host:port:setup:)``); `tcp://` as it is (the server's
    /// settings apply).
    ///
    /// - Throws: what those opens throw.
    public func open(_ setup: PortSetup, links: PseudoTerminalLinkWatch) throws(SerialError) -> any SerialTransport {
        switch self {
        case .tcp(let host, let port):
            return try TCPPort.connect(to: host, port: port, name: description)
        case .rfc2217(let host, let port):
            return try RFC2217Port.open(description, host: host, port: port, setup: setup)
        case .device(let path):
            return try links.open(path) { () throws(SerialError) in try SerialPort.open(path, setup: setup) }
        }
    }
}

extension SerialPort {
    /// Opens the local port at `path` with exclusive access and `setup`'s settings, DTR
    /// and RTS, then pulses DTR and sends a break as it asks.
    ///
    /// - Throws: what ``open(_:configuration:options:)``, ``pulseDTR(milliseconds:)``
    ///   and ``sendBreak(milliseconds:)`` throw.
    public static func open(_ path: String, setup: PortSetup) throws(SerialError) -> SerialPort {
        let port = try open(
            path, configuration: setup.configuration, options: OpenOptions(dtr: setup.dtr, rts: setup.rts))
        if let pulse = setup.pulseDTR { try port.pulseDTR(milliseconds: pulse) }
        if let breakLength = setup.breakLength { try port.sendBreak(milliseconds: breakLength) }
        return port
    }
}
