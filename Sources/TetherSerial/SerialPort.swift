import CLibSerialPort
import Glibc
import Synchronization

/// A serial port opened through libserialport: the transport tether uses for real
/// hardware (`/dev/ttyUSB0`, `/dev/ttyACM0`, `/dev/serial/by-id/…`) and for
/// pseudo-terminals (socat, `tether-sim`, `/dev/pts/N`) alike.
///
/// ## Pseudo-terminals
/// libserialport 0.1.1 cannot look up or open a pty (docs/ARCHITECTURE.md). tether keeps this one
/// libserialport transport and adds a small compatibility layer that acts only on
/// pty slaves: a private link name for the lookup (`PseudoTerminalLink`) and an
/// `ioctl` that emulates the modem-line requests a pty refuses (the `CPtyCompat`
/// target). On a pty, modem lines read back as documented in ``ModemLines`` and
/// setting them is accepted and remembered; nothing else changes.
///
/// ## Threading
/// ``receive(into:)`` and ``transmit(_:)`` never block: the port loop `poll`s
/// ``descriptor`` and calls them (see ``SerialTransport``). Opening, the settings and
/// the modem-line calls may block briefly (libserialport's ioctls, a break); call them
/// from a dedicated thread, never from Swift's cooperative pool. ``close()`` may be
/// called from any thread: it waits for a call in flight to leave before freeing the
/// port.
public final class SerialPort: SerialTransport {
    /// The port name as the user gave it, for display.
    public let name: String
    /// The device node the name resolves to, e.g. `/dev/ttyUSB0` for a by-id link.
    public let path: String
    /// The line settings asked for when the port was opened.
    public let configuration: SerialConfiguration
    /// The settings the port has after the open, read back from the driver (termios,
    /// and `TCGETS2` for the baud rate), and each asked-for one it does not have: a
    /// pseudo-terminal, for one, keeps 8 data bits without parity whatever it is told.
    /// Read back again after ``setBaudRate(_:)``.
    public var settingsReport: SettingsReport { report.withLock { $0 } }
    let report: Mutex<SettingsReport>
    /// Whether the port is a pseudo-terminal slave (character major 136–143), whose
    /// modem lines tether emulates (see ``ModemLines``).
    public let isPseudoTerminal: Bool

    let handle: PortHandle
    /// The `PARMRK` decoder and the line events of the last read (``takeLineEvents()``).
    let conditions: Mutex<ReceivedConditions>

    private init(
        name: String, path: String, configuration: SerialConfiguration, settingsReport: SettingsReport,
        isPseudoTerminal: Bool, handle: PortHandle, conditions: ReceivedConditions
    ) {
        self.conditions = Mutex(conditions)
        self.name = name
        self.path = path
        self.configuration = configuration
        self.report = Mutex(settingsReport)
        self.isPseudoTerminal = isPseudoTerminal
        self.handle = handle
    }

    /// Opens and configures a serial port.
    ///
    /// In order: resolves `name` (links, chains, relative links) to its device node;
    /// opens the node and checks it is a terminal; with `options.exclusive`, takes an
    /// exclusive `flock` on it and its UUCP lock file (`/run/lock/LCK..<name>`,
    /// ``OpenOptions/lockDirectory``) **before any setting changes** (so a busy port's
    /// user is not disturbed); opens it with `sp_open`; applies `configuration` with one
    /// `sp_set_config`; sets DTR and RTS per `options`; and finally makes the
    /// line fully raw: ICRNL, INLCR, IGNCR, ISTRIP, IXANY, OPOST, ICANON, ECHO, ISIG
    /// and IEXTEN off, and IXON/IXOFF off unless the flow control is XON/XOFF
    /// (libserialport 0.1.1 leaves IXON as found; `SerialPortDataTests` checks the bytes
    /// both ways and `receivedXOFFDoesNotStopOutput`); then, on a port that is not a
    /// pseudo-terminal, turns on the `PARMRK` marking of breaks and framing or parity
    /// errors, which ``receive(into:)`` takes out of the data again (``takeLineEvents()``).
    /// A pty is left unmarked: it can receive neither a break nor an errored character
    /// (`SerialPortLineEventTests`), and the marking only moved its input off the
    /// kernel's raw path onto the per-character one, a third of the Model's stream
    /// throughput (docs/PERFORMANCE.md). Last, it reads the settings back
    /// from the port into ``settingsReport``: a setting the driver refused or ignored is
    /// not an error here, it is a mismatch there.
    ///
    /// - Parameters:
    ///   - name: a device path or a link to one, e.g. `/dev/ttyUSB0`,
    ///     `/dev/serial/by-id/usb-…`, `/dev/pts/3`.
    ///   - configuration: baud rate (any positive rate, including non-standard ones),
    ///     data bits, parity, stop bits, flow control.
    ///   - options: exclusive access and DTR/RTS handling.
    /// - Returns: the open port.
    /// - Throws: ``SerialError/invalidConfiguration(_:)`` for out-of-range settings (not
    ///   for settings the port does not take: see ``settingsReport``);
    ///   ``SerialError/notFound(path:)`` for a missing node or dangling link;
    ///   ``SerialError/notASerialPort(path:)`` for a regular file, `/dev/null` or a
    ///   terminal libserialport cannot drive; ``SerialError/permissionDenied(path:owner:)``;
    ///   ``SerialError/busy(path:holder:)`` when another process holds the port's
    ///   `flock` or a UUCP lock file for it; ``SerialError/io(path:function:errno:message:)`` when a
    ///   libserialport function or the read-back fails.
    public static func open(
        _ name: String, configuration: SerialConfiguration, options: OpenOptions = .init()
    ) throws(SerialError) -> SerialPort {
        try configuration.validate()
        let (node, nodeDescriptor) = try DeviceNode.open(name)

        var succeeded = false
        var lockDescriptor: Int32?
        var lockFile: UUCPLockFile?
        var link: PseudoTerminalLink?
        var port: OpaquePointer?
        defer {
            // libserialport uses the name only to look the port up and open it, so the
            // pty link goes as soon as `open` returns: nothing is left behind even if
            // the process is killed later.
            link?.remove()
            if !succeeded {
                if let port {
                    sp_close(port)
                    sp_free_port(port)
                }
                lockFile?.release()
                if let lockDescriptor { Glibc.close(lockDescriptor) }
            }
        }

        lockDescriptor = nodeDescriptor
        if options.exclusive {
            try PortLock.acquire(nodeDescriptor, for: node)
            if let directory = options.lockDirectory {
                lockFile = try UUCPLockFile.acquire(for: node, in: directory)
            }
        } else {
            Glibc.close(nodeDescriptor)
            lockDescriptor = nil
        }

        var libSerialPortName = node.path
        if node.isPseudoTerminalSlave {
            let made = try PseudoTerminalLink(to: node.path, portName: name)
            link = made
            libSerialPortName = made.libSerialPortName
        }
        let lookup = sp_get_port_by_name(libSerialPortName, &port)
        guard lookup == SP_OK, let port else {
            // No /sys/class/tty entry: a terminal, but not a serial port (e.g. /dev/tty).
            if lookup == SP_ERR_ARG { throw .notASerialPort(path: name) }
            try check(lookup, function: "sp_get_port_by_name", path: name)
            throw .notASerialPort(path: name)
        }
        do throws(SerialError) {
            try check(sp_open(port, SP_MODE_READ_WRITE), function: "sp_open", path: name)
        } catch .io(_, _, ENOTTY, _) {
            throw .notASerialPort(path: name)
        }
        var descriptor: Int32 = -1
        try check(sp_get_port_handle(port, &descriptor), function: "sp_get_port_handle", path: name)

        try apply(configuration, to: port, name: name)
        try apply(options, to: port, flowControl: configuration.flowControl, name: name)
        try makeRaw(descriptor, flowControl: configuration.flowControl, keepDTR: options.dtr == .keep, name: name)
        let marks = node.isPseudoTerminalSlave ? false : try markLineConditions(descriptor, name: name)
        let report = SettingsReport(
            requested: configuration, actual: try SerialConfiguration.read(from: descriptor, path: name))

        let handle = PortHandle(
            port: port, descriptor: descriptor, lockDescriptor: lockDescriptor, lockFile: lockFile)
        succeeded = true
        return SerialPort(
            name: name, path: node.path, configuration: configuration, settingsReport: report,
            isPseudoTerminal: node.isPseudoTerminalSlave, handle: handle,
            conditions: ReceivedConditions(
                input: marks ? MarkedInput(checksParity: report.actual?.parity != .some(.none)) : nil))
    }

    /// Closes the port; idempotent and safe from any thread. The lock is released
    /// and, with DTR kept (the default), DTR stays as it was.
    public func close() {
        handle.close()
    }

    /// Applies the line settings with one `sp_set_config` (DTR and RTS are left
    /// alone). When libserialport refuses the set as a whole — `EINVAL` from the
    /// driver, or a setting it does not support here (DTR/DSR flow control on Linux,
    /// `SP_ERR_SUPP`) — each setting is applied alone and the refused ones are left as
    /// the port has them: the read-back after the open (``settingsReport``) names them,
    /// as it names the settings a driver took without applying (a pty's parity).
    private static func apply(
        _ configuration: SerialConfiguration, to port: OpaquePointer, name: String
    ) throws(SerialError) {
        let settings = lineSettings(configuration)
        var config: OpaquePointer?
        try check(sp_new_config(&config), function: "sp_new_config", path: name)
        defer { sp_free_config(config) }
        for setting in settings {
            try check(setting.addTo(config), function: "sp_set_config_* for \(setting.function)", path: name)
        }
        let whole = sp_set_config(port, config)
        guard isRefusal(whole) else {
            try check(whole, function: "sp_set_config", path: name)
            return
        }
        for setting in settings {
            let alone = setting.apply(port)
            if !isRefusal(alone) { try check(alone, function: setting.function, path: name) }
        }
    }

    /// Whether libserialport refused a setting (rather than failed): `SP_ERR_SUPP`, or
    /// the driver's `EINVAL`.
    private static func isRefusal(_ result: sp_return) -> Bool {
        result == SP_ERR_SUPP || (result == SP_ERR_FAIL && sp_last_error_code() == EINVAL)
    }

    /// One line setting: how to put it in a `sp_port_config`, and how to apply it alone
    /// (the libserialport function named `function`).
    private struct LineSetting {
        var function: String
        var addTo: (OpaquePointer?) -> sp_return
        var apply: (OpaquePointer) -> sp_return
    }

    private static func lineSettings(_ configuration: SerialConfiguration) -> [LineSetting] {
        let parity: sp_parity =
            switch configuration.parity {
            case .none: SP_PARITY_NONE
            case .odd: SP_PARITY_ODD
            case .even: SP_PARITY_EVEN
            case .mark: SP_PARITY_MARK
            case .space: SP_PARITY_SPACE
            }
        let flowControl: sp_flowcontrol =
            switch configuration.flowControl {
            case .none: SP_FLOWCONTROL_NONE
            case .xonXoff: SP_FLOWCONTROL_XONXOFF
            case .rtsCts: SP_FLOWCONTROL_RTSCTS
            case .dtrDsr: SP_FLOWCONTROL_DTRDSR
            }
        let baudRate = Int32(configuration.baudRate)
        let dataBits = Int32(configuration.dataBits)
        let stopBits = Int32(configuration.stopBits)
        return [
            LineSetting(
                function: "sp_set_baudrate", addTo: { sp_set_config_baudrate($0, baudRate) },
                apply: { sp_set_baudrate($0, baudRate) }),
            LineSetting(
                function: "sp_set_bits", addTo: { sp_set_config_bits($0, dataBits) },
                apply: { sp_set_bits($0, dataBits) }),
            LineSetting(
                function: "sp_set_parity", addTo: { sp_set_config_parity($0, parity) },
                apply: { sp_set_parity($0, parity) }),
            LineSetting(
                function: "sp_set_stopbits", addTo: { sp_set_config_stopbits($0, stopBits) },
                apply: { sp_set_stopbits($0, stopBits) }),
            LineSetting(
                function: "sp_set_flowcontrol", addTo: { sp_set_config_flowcontrol($0, flowControl) },
                apply: { sp_set_flowcontrol($0, flowControl) }),
        ]
    }

    private static func apply(
        _ options: OpenOptions, to port: OpaquePointer, flowControl: FlowControl, name: String
    ) throws(SerialError) {
        if flowControl != .dtrDsr, options.dtr != .keep {
            try check(
                sp_set_dtr(port, options.dtr == .on ? SP_DTR_ON : SP_DTR_OFF), function: "sp_set_dtr", path: name)
        }
        if flowControl != .rtsCts, options.rts != .keep {
            try check(
                sp_set_rts(port, options.rts == .on ? SP_RTS_ON : SP_RTS_OFF), function: "sp_set_rts", path: name)
        }
    }

    /// Makes the line raw whatever libserialport did (`tcgetattr`/`tcsetattr`).
    ///
    /// Measured with 0.1.1: `sp_open` already clears the translations and
    /// `sp_set_flowcontrol` the XON/XOFF flags, but XON/XOFF flow control leaves
    /// IXANY on (any byte would restart output) and `sp_open` sets `HUPCL`. The full
    /// list is cleared here so the guarantee rests on one place.
    /// RTS/CTS flow control is set here too: 0.1.1 puts `CRTSCTS` in `c_iflag`, where
    /// glibc's `tcsetattr` drops it, so the line never got it
    /// (`rtsCtsFlowControlReachesTheLine`).
    private static func makeRaw(
        _ descriptor: Int32, flowControl: FlowControl, keepDTR: Bool, name: String
    ) throws(SerialError) {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            throw SerialError.fromErrno(errno, path: name, function: "tcgetattr")
        }
        var inputOff = ICRNL | INLCR | IGNCR | ISTRIP | IXANY
        if flowControl != .xonXoff { inputOff |= IXON | IXOFF }
        settings.c_iflag &= ~tcflag_t(inputOff)
        settings.c_oflag &= ~tcflag_t(OPOST)
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        if keepDTR { settings.c_cflag &= ~tcflag_t(HUPCL) }
        if flowControl == .rtsCts {
            settings.c_cflag |= tcflag_t(CRTSCTS)
        } else {
            settings.c_cflag &= ~tcflag_t(CRTSCTS)
        }
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else {
            throw SerialError.fromErrno(errno, path: name, function: "tcsetattr")
        }
    }
}
