import Glibc
import Synchronization

extension RFC2217Port: LineControl {
    /// The longest a line control call waits for the server's answer, in ms (a server
    /// that does not answer, e.g. ser2net on a pty for DTR/RTS, costs this much).
    static let controlTimeout = 1_000

    /// Runs an exchange with the server on the caller's thread (the port loop, between
    /// reads and writes): telnet commands still queued go out first, data writes from
    /// other threads wait until it is over (so a command is never torn by them), and
    /// device data read meanwhile is kept for the next ``receive(into:)``.
    ///
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` when the server
    ///   refused RFC 2217; what `body` throws.
    private func withHandshake<Value>(
        _ what: String, _ body: (inout Handshake) throws(SerialError) -> Value
    ) throws(SerialError) -> Value {
        guard controlsPort else {
            throw .io(path: name, function: what, errno: 0, message: "the server refused RFC 2217 serial port control")
        }
        return try receiving.withLock { (state) throws(SerialError) -> Value in
            try sending.withLock { (writer) throws(SerialError) -> Value in
                let deadline = Deadline(milliseconds: Self.controlTimeout)
                let connection = self.connection
                let write: TelnetWriter.Write = { (chunk) throws(SerialError) in try connection.transmit(chunk) }
                while try !writer.flushCommands(through: write) {
                    guard connection.waits(for: POLLOUT, until: deadline) else {
                        throw .io(path: name, function: what, errno: ETIMEDOUT, message: "the server takes no data")
                    }
                }
                var handshake = Handshake(
                    name: name, connection: connection, state: state, timeout: Self.controlTimeout)
                defer {
                    state = handshake.state
                    holdsEarlyData.store(!state.early.isEmpty, ordering: .releasing)
                }
                return try body(&handshake)
            }
        }
    }

    /// Asserts or deasserts DTR (`SET-CONTROL` DTR-ON / DTR-OFF).
    public func setDTR(_ asserted: Bool) throws(SerialError) {
        try withHandshake("SET-CONTROL") { (handshake) throws(SerialError) in
            try handshake.exchange([.control(asserted ? .dtrOn : .dtrOff)], settles: false)
        }
    }

    /// Asserts or deasserts RTS (`SET-CONTROL` RTS-ON / RTS-OFF).
    public func setRTS(_ asserted: Bool) throws(SerialError) {
        try withHandshake("SET-CONTROL") { (handshake) throws(SerialError) in
            try handshake.exchange([.control(asserted ? .rtsOn : .rtsOff)], settles: false)
        }
    }

    /// Sets DTR and RTS in one exchange (`SET-CONTROL` DTR-ON/OFF, then RTS-ON/OFF); a
    /// `nil` line is left as it is.
    public func setLines(dtr: Bool?, rts: Bool?) throws(SerialError) {
        var settings: [ComPortOption.Setting] = []
        if let dtr { settings.append(.control(dtr ? .dtrOn : .dtrOff)) }
        if let rts { settings.append(.control(rts ? .rtsOn : .rtsOff)) }
        guard !settings.isEmpty else { return }
        try withHandshake("SET-CONTROL") { (handshake) throws(SerialError) in
            try handshake.exchange(settings, settles: false)
        }
    }

    /// Starts or ends a break (`SET-CONTROL` BREAK-ON / BREAK-OFF).
    public func setBreak(_ isOn: Bool) throws(SerialError) {
        try withHandshake("SET-CONTROL") { (handshake) throws(SerialError) in
            try handshake.exchange([.control(isOn ? .breakOn : .breakOff)], settles: false)
        }
    }

    /// Sends a break of `milliseconds` ms (`SET-CONTROL` BREAK-ON, then BREAK-OFF).
    public func sendBreak(milliseconds: Int) throws(SerialError) {
        try withHandshake("SET-CONTROL") { (handshake) throws(SerialError) in
            try handshake.sendBreak(milliseconds: milliseconds)
        }
    }

    /// Drops DTR for `milliseconds` ms, then raises it.
    public func pulseDTR(milliseconds: Int) throws(SerialError) {
        try withHandshake("SET-CONTROL") { (handshake) throws(SerialError) in
            try handshake.pulseDTR(milliseconds: milliseconds)
        }
    }

    /// Changes the remote port's baud rate (`SET-BAUDRATE`); the rate the server
    /// answered becomes the ``settingsReport``'s.
    ///
    /// - Throws: ``SerialError/invalidConfiguration(_:)`` for a rate below 1 or above
    ///   `UInt32.max`; ``SerialError/io(path:function:errno:message:)`` when the server
    ///   applies another rate.
    public func setBaudRate(_ baudRate: Int) throws(SerialError) {
        guard baudRate > 0, baudRate <= Int(UInt32.max) else {
            throw .invalidConfiguration("baud rate \(baudRate) is out of range (1 to \(UInt32.max))")
        }
        try withHandshake("SET-BAUDRATE") { (handshake) throws(SerialError) in
            let setting = ComPortOption.settings(for: SerialConfiguration(baudRate: baudRate))
                .first { $0.command == .setBaudRate }!
            try handshake.exchange([setting], settles: false)
            let code = ComPortOption.Command.setBaudRate.rawValue + ComPortOption.replyOffset
            let applied = handshake.answers[code].flatMap(ComPortOption.baudRate)
            if let applied, applied != baudRate {
                throw .io(
                    path: name, function: "SET-BAUDRATE", errno: 0,
                    message: "the server set the baud rate to \(applied), not \(baudRate)")
            }
            report.withLock { report in
                guard var actual = report.actual else { return }
                actual.baudRate = applied ?? baudRate
                report = SettingsReport(actual: actual, warnings: report.warnings)
            }
        }
    }

    /// Reads the remote port's modem control lines: DTR and RTS as the server drives
    /// them (`SET-CONTROL` requests 7 and 10), CTS, DSR, DCD and RI from the server's
    /// `NOTIFY-MODEMSTATE`, which it sends when the modem state mask is set (RFC 2217).
    ///
    /// - Returns: the asserted lines; a line the server did not report is off.
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` when the server does
    ///   not control the port (it refused RFC 2217); what the socket throws.
    public func modemLines() throws(SerialError) -> ModemLines {
        try withHandshake("NOTIFY-MODEMSTATE") { (handshake) throws(SerialError) -> ModemLines in
            let notify = ComPortOption.Command.notifyModemState.rawValue + ComPortOption.replyOffset
            try handshake.exchange(
                [
                    ComPortOption.Setting(command: .setModemStateMask, value: [0xFF]),
                    .control(.requestDTR), .control(.requestRTS),
                ], also: [notify], settles: false)
            let control = ComPortOption.Command.setControl.rawValue + ComPortOption.replyOffset
            var lines: ModemLines = []
            for value in handshake.answersReceived(control).compactMap(\.first) {
                if value == ComPortOption.Control.dtrOn.rawValue { lines.insert(.dtr) }
                if value == ComPortOption.Control.rtsOn.rawValue { lines.insert(.rts) }
            }
            let modem = handshake.answers[notify]?.first ?? 0
            for (bit, line) in [(0x10, ModemLines.cts), (0x20, .dsr), (0x40, .ri), (0x80, .dcd)]
            where Int(modem) & bit != 0 {
                lines.insert(line)
            }
            try handshake.exchange(
                [ComPortOption.Setting(command: .setModemStateMask, value: [ComPortOption.modemStateMask])],
                settles: false)
            return lines
        }
    }
}
