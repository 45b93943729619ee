/// How a serial line is framed and paced: baud rate, data bits, parity, stop bits
/// and flow control.
///
/// The defaults are the common "115200 8N1, no flow control". Values follow the
/// usual UART settings (EIA/TIA-232); libserialport applies them with one
/// `sp_set_config` (see ``SerialPort/open(_:configuration:options:)``).
public struct SerialConfiguration: Sendable, Equatable {
    /// Baud rate in bit/s (baud), for example `9600` or `115200`. Any positive
    /// rate is passed to the driver; non-standard rates work where the driver
    /// supports them (Linux `BOTHER`).
    public var baudRate: Int
    /// The baud rates ``validate()`` accepts: 1 to `Int32.max`, the most libserialport's
    /// `sp_set_baudrate` takes (an `int`).
    public static let baudRates = 1...Int(Int32.max)
    /// Data bits per character, 5...8.
    public var dataBits: Int
    /// Parity bit.
    public var parity: Parity
    /// Stop bits, 1 or 2.
    public var stopBits: Int
    /// Flow control (handshake).
    public var flowControl: FlowControl

    /// Creates a configuration; the defaults give 115200 baud, 8N1, no flow control.
    public init(
        baudRate: Int = 115_200, dataBits: Int = 8, parity: Parity = .none, stopBits: Int = 1,
        flowControl: FlowControl = .none
    ) {
        self.baudRate = baudRate
        self.dataBits = dataBits
        self.parity = parity
        self.stopBits = stopBits
        self.flowControl = flowControl
    }

    /// Checks every field's range.
    ///
    /// - Throws: ``SerialError/invalidConfiguration(_:)`` naming the field and the
    ///   accepted values.
    public func validate() throws(SerialError) {
        guard Self.baudRates.contains(baudRate) else {
            throw .invalidConfiguration(
                "baud rate must be \(Self.baudRates.lowerBound) to \(Self.baudRates.upperBound) baud, got \(baudRate)")
        }
        guard (5...8).contains(dataBits) else {
            throw .invalidConfiguration("data bits must be 5, 6, 7 or 8, got \(dataBits)")
        }
        guard stopBits == 1 || stopBits == 2 else {
            throw .invalidConfiguration("stop bits must be 1 or 2, got \(stopBits)")
        }
    }

    /// The short form engineers write, e.g. `115200 8N1` or `9600 7E2 RTS/CTS`.
    public var summary: String {
        var text = "\(baudRate) \(dataBits)\(parity.letter)\(stopBits)"
        if flowControl != .none { text += " \(flowControl.displayName)" }
        return text
    }
}

/// The parity bit of each character.
public enum Parity: String, Sendable, CaseIterable {
    /// No parity bit.
    case none
    /// The parity bit makes the number of 1 bits odd.
    case odd
    /// The parity bit makes the number of 1 bits even.
    case even
    /// The parity bit is always 1.
    case mark
    /// The parity bit is always 0.
    case space

    /// The letter used in `8N1`-style summaries.
    public var letter: String {
        switch self {
        case .none: "N"
        case .odd: "O"
        case .even: "E"
        case .mark: "M"
        case .space: "S"
        }
    }
}

/// Flow control (handshake) on the line.
public enum FlowControl: String, Sendable, CaseIterable {
    /// No flow control: every byte, including 0x11 and 0x13, is data.
    case none
    /// Hardware flow control on the RTS and CTS lines.
    case rtsCts = "rtscts"
    /// Software flow control: XON (0x11) and XOFF (0x13) pause and resume output and
    /// are removed from the received data by the kernel.
    case xonXoff = "xonxoff"
    /// Hardware flow control on the DTR and DSR lines.
    case dtrDsr = "dtrdsr"

    /// The name engineers use, e.g. `RTS/CTS`.
    public var displayName: String {
        switch self {
        case .none: "none"
        case .rtsCts: "RTS/CTS"
        case .xonXoff: "XON/XOFF"
        case .dtrDsr: "DTR/DSR"
        }
    }
}
