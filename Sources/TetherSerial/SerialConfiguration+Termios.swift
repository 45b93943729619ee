import CPtyCompat
import Glibc

extension SerialConfiguration {
    /// The settings a termios structure holds (the Linux `termios(3)` flags).
    ///
    /// Data bits from `CSIZE` (`CS5`…`CS8`); parity `none` without `PARENB`, else
    /// `mark`/`space` with `CMSPAR` and `odd`/`even` without it, by `PARODD`; stop bits 2
    /// with `CSTOPB`; flow control RTS/CTS with `CRTSCTS`, XON/XOFF with both `IXON` and
    /// `IXOFF`, else none (Linux termios has no DTR/DSR flow control, so it never reads
    /// back as such).
    ///
    /// - Parameters:
    ///   - settings: the flags, as `tcgetattr` gives them.
    ///   - baudRate: the output speed in baud, as `TCGETS2` gives it (the termios speed
    ///     codes cannot hold non-standard rates).
    public init(termios settings: termios, baudRate: Int) {
        let control = settings.c_cflag
        let dataBits: Int =
            switch control & tcflag_t(CSIZE) {
            case tcflag_t(CS5): 5
            case tcflag_t(CS6): 6
            case tcflag_t(CS7): 7
            default: 8
            }
        let isOdd = control & tcflag_t(PARODD) != 0
        let parity: Parity =
            if control & tcflag_t(PARENB) == 0 {
                .none
            } else if control & tcflag_t(CMSPAR) != 0 {
                isOdd ? .mark : .space
            } else {
                isOdd ? .odd : .even
            }
        let softwareFlow = tcflag_t(IXON | IXOFF)
        let flowControl: FlowControl =
            if control & tcflag_t(CRTSCTS) != 0 {
                .rtsCts
            } else if settings.c_iflag & softwareFlow == softwareFlow {
                .xonXoff
            } else {
                .none
            }
        self.init(
            baudRate: baudRate, dataBits: dataBits, parity: parity,
            stopBits: control & tcflag_t(CSTOPB) != 0 ? 2 : 1, flowControl: flowControl)
    }

    /// Reads the settings an open terminal has now: `tcgetattr` for the flags and
    /// `TCGETS2` for the output speed, so a non-standard (`BOTHER`) rate reads back
    /// exactly.
    ///
    /// - Parameters:
    ///   - descriptor: the open terminal's file descriptor.
    ///   - path: the port name for errors.
    /// - Throws: ``SerialError`` naming `tcgetattr` or `TCGETS2` when a call fails.
    static func read(from descriptor: Int32, path: String) throws(SerialError) -> SerialConfiguration {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            throw SerialError.fromErrno(errno, path: path, function: "tcgetattr")
        }
        var input: UInt32 = 0
        var output: UInt32 = 0
        guard tether_tty_get_speeds(descriptor, &input, &output) == 0 else {
            throw SerialError.fromErrno(errno, path: path, function: "TCGETS2")
        }
        return SerialConfiguration(termios: settings, baudRate: Int(output))
    }
}
