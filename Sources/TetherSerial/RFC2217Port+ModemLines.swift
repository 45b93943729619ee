extension RFC2217Port {
    /// Reads the remote port's modem control lines: DTR and RTS as the server drives
    /// them (`SET-CONTROL` requests 7 and 10), CTS, DSR, DCD and RI from the server's
    /// `NOTIFY-MODEMSTATE`, which it sends when the modem state mask is set (RFC 2217).
    /// Blocks up to ``answerTimeout`` ms for the answers; call it before the port loop
    /// owns the port (as `tether lines` does).
    ///
    /// - Returns: the asserted lines; a line the server did not report is off.
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` when the server does
    ///   not control the port (it refused RFC 2217); what the socket throws.
    public func modemLines() throws(SerialError) -> ModemLines {
        guard controlsPort else {
            throw .io(
                path: name, function: "NOTIFY-MODEMSTATE", errno: 0,
                message: "the server refused RFC 2217, so it reports no modem lines")
        }
        return try receiving.withLock { (state) throws(SerialError) -> ModemLines in
            var handshake = Handshake(name: name, connection: connection, state: state)
            defer { state = handshake.state }
            let notify = ComPortOption.Command.notifyModemState.rawValue + ComPortOption.replyOffset
            try handshake.exchange(
                [
                    ComPortOption.Setting(command: .setModemStateMask, value: [0xFF]),
                    .control(.requestDTR), .control(.requestRTS),
                ], also: [notify])
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
            try handshake.exchange([ComPortOption.Setting(command: .setModemStateMask, value: [0])])
            return lines
        }
    }
}
