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
    /// `Handshake/settingsReport(asked:)`); unknown, with a warning, when it refused
    /// serial port control; after a change of baud rate (``setBaudRate(_:)``), the
    /// server's answer to it.
    public var settingsReport: SettingsReport { report.withLock { $0 } }
    let report: Mutex<SettingsReport>
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
        /// Why the stream stopped being telnet, thrown by the read after the data
        /// before it is handed out.
        var failure: SerialError?
        /// The server's notifications as line events (``RFC2217Port/takeLineEvents()``).
        var notifications = RemoteLineState()

        /// Takes in the commands a read decoded: the negotiations' answers, and for a
        /// subnegotiation the decoder gave up on, ``failure``.
        ///
        /// - Returns: the replies to send, and the COM-PORT-OPTION answers among the
        ///   commands (code and value), in order.
        mutating func handleCommands(name: String) -> (replies: [UInt8], answers: [(code: UInt8, value: [UInt8])]) {
            var replies: [UInt8] = []
            var answers: [(code: UInt8, value: [UInt8])] = []
            for command in commands {
                switch command {
                case .negotiation(let verb, let option):
                    replies += negotiation.handle(verb: verb, option: option)
                case .subnegotiation(let bytes) where bytes.count >= 2 && bytes[0] == Telnet.Option.comPort:
                    answers.append((bytes[1], Array(bytes.dropFirst(2))))
                case .unterminatedSubnegotiation(let option):
                    failure = failure ?? Self.unterminated(option, name: name)
                default:
                    break
                }
            }
            return (replies, answers)
        }

        private static func unterminated(_ option: UInt8?, name: String) -> SerialError {
            let what = option.map { "subnegotiation of option \($0)" } ?? "subnegotiation"
            return .io(
                path: name, function: "receive", errno: 0,
                message: "the server's telnet \(what) ran past \(TelnetDecoder.maximumSubnegotiationLength) bytes "
                    + "without IAC SE; the connection is closed")
        }
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
        report = Mutex(settingsReport)
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
                if state.early.isEmpty, state.failure == nil { holdsEarlyData.store(false, ordering: .releasing) }
                return count
            }
            if let failure = state.failure { throw failure }
            while true {
                let count = try connection.receive(into: buffer)
                guard count > 0 else { return count }
                state.commands.removeAll(keepingCapacity: true)
                let data = state.decoder.decode(buffer, count: count, commands: &state.commands)
                let (replies, answers) = state.handleCommands(name: name)
                if !replies.isEmpty { try queue(command: replies) }
                for answer in answers { state.notifications.take(code: answer.code, value: answer.value, at: data) }
                if data == 0, state.notifications.hasEvents { return Self.nothingReceived }
                if let failure = state.failure {
                    guard data > 0 else { throw failure }
                    // The data before it first; the descriptor stays readable for the throw.
                    holdsEarlyData.store(true, ordering: .releasing)
                    return data
                }
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
    ///
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` when
    ///   ``TelnetWriter/maximumQueuedCommands`` bytes of commands wait already (the
    ///   server negotiates without reading): the connection is given up.
    func queue(command bytes: [UInt8]) throws(SerialError) {
        try sending.withLock { (writer) throws(SerialError) in
            guard writer.queue(command: bytes) else {
                throw .io(
                    path: name, function: "send", errno: 0,
                    message: "the server keeps negotiating telnet options without reading the answers "
                        + "(\(TelnetWriter.maximumQueuedCommands) bytes wait); the connection is closed")
            }
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
