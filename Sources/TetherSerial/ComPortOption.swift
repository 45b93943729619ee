/// RFC 2217 (Telnet Com Port Control Option) messages: the subnegotiations of
/// COM-PORT-OPTION (44) that set a remote serial port's baud rate, data bits,
/// parity, stop bits, flow control, DTR/RTS and break.
///
/// A client sends `IAC SB 44 <command> <value…> IAC SE`; the server answers each
/// setting with the command plus 100 and the value it applied.
enum ComPortOption {
    /// Client-to-server commands (server replies add 100).
    enum Command: UInt8 {
        case setBaudRate = 1
        case setDataSize = 2
        case setParity = 3
        case setStopSize = 4
        case setControl = 5
        case notifyLineState = 6
        case notifyModemState = 7
        case setLineStateMask = 10
        case setModemStateMask = 11
    }

    /// What the server adds to a command's code in its reply.
    static let replyOffset: UInt8 = 100

    /// `SET-CONTROL` values.
    enum Control: UInt8 {
        case noFlowControl = 1
        case xonXoff = 2
        case hardwareFlowControl = 3
        case breakOn = 5
        case breakOff = 6
        case requestDTR = 7
        case dtrOn = 8
        case dtrOff = 9
        case requestRTS = 10
        case rtsOn = 11
        case rtsOff = 12
        case dsrFlowControl = 19
    }

    /// One setting to send and the reply to expect.
    struct Setting: Equatable {
        var command: Command
        var value: [UInt8]

        /// `SET-CONTROL value`.
        static func control(_ value: Control) -> Setting { Setting(command: .setControl, value: [value.rawValue]) }

        /// The framed subnegotiation, 0xFF in the value doubled.
        var message: [UInt8] {
            var bytes = [Telnet.iac, Telnet.sb, Telnet.Option.comPort, command.rawValue]
            for byte in value {
                bytes.append(byte)
                if byte == Telnet.iac { bytes.append(byte) }
            }
            return bytes + [Telnet.iac, Telnet.se]
        }
    }

    /// The `SET-LINESTATE-MASK` tether asks for: break-detect (16), framing error (8),
    /// parity error (4) and overrun error (2) — what a `line_event` reports; not data
    /// ready or the transmit register bits, which change with every byte.
    static let lineStateMask: UInt8 = 0x1E
    /// The `SET-MODEMSTATE-MASK` tether asks for: every bit, the states of CTS, DSR, RI
    /// and DCD and their deltas.
    static let modemStateMask: UInt8 = 0xFF

    /// The settings that apply `configuration`, and that ask for the server's line and
    /// modem state notifications (``lineStateMask``, ``modemStateMask``), in the order sent.
    static func settings(for configuration: SerialConfiguration) -> [Setting] {
        let baud = UInt32(clamping: configuration.baudRate)
        let parity = parityCode(configuration.parity)
        let flow = flowControl(configuration.flowControl)
        return [
            Setting(command: .setLineStateMask, value: [lineStateMask]),
            Setting(command: .setModemStateMask, value: [modemStateMask]),
            Setting(
                command: .setBaudRate,
                value: [UInt8(baud >> 24), UInt8((baud >> 16) & 0xFF), UInt8((baud >> 8) & 0xFF), UInt8(baud & 0xFF)]),
            Setting(command: .setDataSize, value: [UInt8(configuration.dataBits)]),
            Setting(command: .setParity, value: [parity]),
            Setting(command: .setStopSize, value: [UInt8(configuration.stopBits)]),
            .control(flow),
        ]
    }

    /// The `SET-PARITY` value of `parity` (1 none, 2 odd, 3 even, 4 mark, 5 space).
    static func parityCode(_ parity: Parity) -> UInt8 {
        switch parity {
        case .none: 1
        case .odd: 2
        case .even: 3
        case .mark: 4
        case .space: 5
        }
    }

    /// The `SET-CONTROL` value of a flow control.
    static func flowControl(_ flowControl: FlowControl) -> Control {
        switch flowControl {
        case .none: .noFlowControl
        case .xonXoff: .xonXoff
        case .rtsCts: .hardwareFlowControl
        case .dtrDsr: .dsrFlowControl
        }
    }

    /// The baud rate in a `SET-BAUDRATE` value or reply (4 bytes, network order).
    static func baudRate(_ value: some Collection<UInt8>) -> Int? {
        guard value.count == 4 else { return nil }
        return value.reduce(0) { $0 << 8 | Int($1) }
    }
}
