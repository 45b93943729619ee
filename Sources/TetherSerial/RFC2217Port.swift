import Synchronization
import TetherPoll

/// A serial port exported over telnet with RFC 2217 serial port control (ser2net's
/// `accepter: telnet(rfc2217),tcp,…`; pyserial's `rfc2217://`, labgrid and tio speak
/// it too): the baud rate, data bits, parity, stop bits, flow control, DTR/RTS and
/// break are set from here, and the data travels with every 0xFF doubled.
///
/// ``open(_:host:port:setup:)`` connects, negotiates and applies the settings
/// before it returns, waiting for the server's answers, so what the port loop then
/// reads is the device's data; the answers are its ``settingsReport``. A server that
/// refuses COM-PORT-OPTION (or does not answer) is a warning there, and the port
/// carries on with raw data at the server's settings. Notifications the server sends later (line or modem state,
/// option changes) are answered or ignored inside ``receive(into:)``, which then
/// returns ``SerialTransport/nothingReceived`` when nothing else came.
///
/// Device data that arrives during the open (a boot banner sent when the server
/// opened the port), or while a line control exchange waits for the server's answer,
/// is kept and returned by the next reads. Until it has been, the ``descriptor`` is a
/// pipe that is always readable, not the socket, so the port loop reads it at once
/// (at open: as the input waiting there, never as the reply to a command); the loop
/// reads ``descriptor`` before every `poll`.
public final class RFC2217Port: SerialTransport {
    /// The address as the user gave it (`rfc2217://host:7000`).
    public let name: String
    /// Whether the server accepted RFC 2217 serial port control; when false the port
    /// carries raw data at the server's settings.
    public let controlsPort: Bool
    /// The settings as the server answered them at the open (see
    /// ``Handshake/settingsReport(asked:)``); unknown, with a warning, when it refused
    /// serial port control.
    public let settingsReport: SettingsReport
    /// The socket, or while data read ahead (during the open or a line control
    /// exchange) waits, a pipe that is always readable.
    public var descriptor: Int32 {
        holdsEarlyData.load(ordering: .acquiring) ? earlyData.readEnd : connection.descriptor
    }

    let connection: TCPPort
    /// Always readable (signalled once, never drained): the ``descriptor`` while
    /// ``Receiving/early`` holds data.
    private let earlyData: WakeUpPipe
    let holdsEarlyData: Atomic<Bool>
    private let isClosed = Atomic(false)
    let receiving: Mutex<Receiving>
    let sending: Mutex<TelnetWriter>

    /// The receiving side's state, owned by the thread that reads.
    struct Receiving {
        var decoder = TelnetDecoder()
        var negotiation = TelnetNegotiation()
        var commands: [TelnetDecoder.Command] = []
        /// Data read during the open or a line control exchange, handed out first.
        var early: [UInt8] = []
    }

    /// Wraps a connection the open has negotiated.
    ///
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` naming `pipe` when
    ///   the process is out of descriptors.
    init(
        name: String, connection: TCPPort, controlsPort: Bool, settingsReport: SettingsReport, receiving: Receiving
    ) throws(SerialError) {
        self.name = name
        self.connection = connection
        self.controlsPort = controlsPort
        self.settingsReport = settingsReport
        earlyData = try WakeUpPipe(for: name)
        earlyData.signal()
        holdsEarlyData = Atomic(!receiving.early.isEmpty)
        self.receiving = Mutex(receiving)
        self.sending = Mutex(TelnetWriter())
    }

    /// Reads the device's data, taking telnet commands out and answering option
    /// requests; see ``SerialTransport/receive(into:)``.
    ///
    /// - Returns: the data bytes; 0 when the server closed the connection;
    ///   ``SerialTransport/nothingReceived`` when what was waiting held only telnet
    ///   commands.
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` on a socket failure.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        try receiving.withLock { (state) throws(SerialError) -> Int in
            if !state.early.isEmpty {
                let count = min(buffer.count, state.early.count)
                buffer.copyBytes(from: state.early[..<count])
                state.early.removeFirst(count)
                if state.early.isEmpty { holdsEarlyData.store(false, ordering: .releasing) }
                return count
            }
            while true {
                let count = try connection.receive(into: buffer)
                guard count > 0 else { return count }
                state.commands.removeAll(keepingCapacity: true)
                let data = state.decoder.decode(buffer, count: count, commands: &state.commands)
                var replies: [UInt8] = []
                for case .negotiation(let verb, let option) in state.commands {
                    replies += state.negotiation.handle(verb: verb, option: option)
                }
                if !replies.isEmpty { try queue(command: replies) }
                if data > 0 { return data }
            }
        }
    }

    /// Writes data with 0xFF doubled, after any telnet replies still waiting; see
    /// ``SerialTransport/transmit(_:)``.
    ///
    /// - Returns: how many bytes of `bytes` went out (0 when the socket is full).
    /// - Throws: ``SerialError/disconnected(path:)`` when the connection is gone.
    public func transmit(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int {
        try sending.withLock { (writer) throws(SerialError) -> Int in
            try writer.transmit(bytes) { (chunk) throws(SerialError) in try connection.transmit(chunk) }
        }
    }

    /// Queues a telnet command and sends what the socket takes now.
    func queue(command bytes: [UInt8]) throws(SerialError) {
        try sending.withLock { (writer) throws(SerialError) in
            writer.queue(command: bytes)
            _ = try writer.flushCommands { (chunk) throws(SerialError) in try connection.transmit(chunk) }
        }
    }

    /// Closes the connection; idempotent.
    public func close() {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        connection.close()
        earlyData.close()
    }
}
