import Glibc

extension RFC2217Port {
    /// The longest the open waits for each of the server's answers, in ms.
    public static let answerTimeout = 2_000
    /// How long the connection must stay quiet after the last expected answer, in ms,
    /// so a late notification is taken during the open rather than by the port loop.
    static let settleTime = 50
    /// The longest the open waits for the line to settle (a device may never be
    /// quiet), in ms.
    static let settleLimit = 500
    /// The most device data an exchange with the server (the open, a line control
    /// call) reads ahead while it waits for the server's answers: 64 KiB. Past it the
    /// exchange stops reading, as if the server did not answer (a warning or a setting
    /// not confirmed, in the ``settingsReport``); the data is all kept, for the port
    /// loop, and the socket holds the rest.
    public static let maximumEarlyData = 65_536
    /// The most COM-PORT-OPTION answers an exchange records (a server repeating them
    /// for ever is bounded by time, and this).
    static let maximumAnswersRecorded = 1024

    /// Connects to an RFC 2217 server, negotiates telnet options and applies `setup`.
    /// Blocks (for the server's answers, up to ``answerTimeout`` ms each).
    ///
    /// - Parameters:
    ///   - name: the address for messages and display (`rfc2217://host:7000`).
    ///   - host: a host name or address (IPv6 without brackets).
    ///   - port: the TCP port.
    ///   - setup: serial settings, DTR/RTS, a DTR pulse and a break to apply. What the
    ///     server answered is the port's ``settingsReport``: a setting it set otherwise
    ///     or did not confirm is a mismatch there, and a server that refuses serial port
    ///     control is a warning there (the port then carries on with raw data).
    /// - Throws: ``SerialError/invalidConfiguration(_:)`` for a bad setting; what
    ///   ``TCPPort/connect(to:port:name:timeout:)`` throws; ``SerialError/disconnected(path:)``
    ///   when the server closes the connection during the open.
    public static func open(
        _ name: String, host: String, port: UInt16, setup: PortSetup
    ) throws(SerialError) -> RFC2217Port {
        try setup.configuration.validate()
        let connection = try TCPPort.connect(to: host, port: port, name: name)
        var handshake = Handshake(name: name, connection: connection)
        var report = SettingsReport()
        do throws(SerialError) {
            if let refusal = try handshake.negotiate() { report.warnings.append(refusal) }
            if handshake.state.negotiation.isComPortAccepted {
                report = try handshake.configure(setup)
            }
        } catch {
            connection.close()
            throw error
        }
        do throws(SerialError) {
            return try RFC2217Port(
                name: name, connection: connection, controlsPort: handshake.state.negotiation.isComPortAccepted,
                settingsReport: report, receiving: handshake.state)
        } catch {
            connection.close()
            throw error
        }
    }

    /// The exchange of the open, on a blocking schedule: send, then read answers until
    /// what is expected has come or the time is up.
    struct Handshake {
        let name: String
        let connection: TCPPort
        var state = Receiving()
        /// The server's answers to settings, by command code (the last of each).
        var answers: [UInt8: [UInt8]] = [:]
        /// Every answer, in order: its code and value.
        private var log: [(code: UInt8, value: [UInt8])] = []
        private var buffer = [UInt8](repeating: 0, count: 4096)

        /// The longest wait for each answer, in ms.
        let timeout: Int

        init(name: String, connection: TCPPort, state: Receiving = Receiving(), timeout: Int = answerTimeout) {
            self.name = name
            self.connection = connection
            self.state = state
            self.timeout = timeout
        }

        /// Sends `bytes`, waiting up to ``timeout`` ms for room.
        private mutating func send(_ bytes: [UInt8]) throws(SerialError) {
            do throws(SerialError) {
                try connection.transmitAll(bytes, timeout: timeout)
            } catch .disconnected {
                throw closedFailure()
            }
        }

        /// The server closed the connection during the open: a disconnect, with what it
        /// said first, if anything (ser2net: `Port already in use`).
        ///
        /// What the socket still holds is read first: a write that finds the connection
        /// reset fails before any read took the words the server sent ahead of its close.
        private mutating func closedFailure() -> SerialError {
            takeWhatIsLeft()
            let words = state.early.prefix(120).split(whereSeparator: { $0 < 0x20 || $0 == 0x7F })
            let said = words.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
            guard !said.isEmpty else {
                return .disconnected(path: name)
            }
            return .io(path: name, function: "open", errno: 0, message: "the server closed the connection: \(said)")
        }

        /// Reads, without waiting, the data the socket still holds into ``Receiving/early``.
        private mutating func takeWhatIsLeft() {
            while state.early.count < RFC2217Port.maximumEarlyData,
                connection.waits(for: POLLIN, until: Deadline(milliseconds: 0)),
                let count = try? receive(), count > 0
            {}
        }

        /// Reads once from the socket, answers nothing yet, and keeps the data in
        /// ``Receiving/early`` (its telnet commands in ``Receiving/commands``).
        ///
        /// - Returns: what `recv` gave: 0 when the server closed, less when nothing came.
        private mutating func receive() throws(SerialError) -> Int {
            let count = try buffer.withMutableBytes { (bytes) throws(SerialError) in
                try connection.receive(into: bytes)
            }
            guard count > 0 else { return count }
            state.commands.removeAll(keepingCapacity: true)
            let data = buffer.withUnsafeMutableBytes { bytes in
                state.decoder.decode(bytes, count: count, commands: &state.commands)
            }
            state.early += buffer[..<data]
            return count
        }

        /// The values of every answer with `code` so far, in order.
        func answersReceived(_ code: UInt8) -> [[UInt8]] { log.filter { $0.code == code }.map(\.value) }

        /// Offers the options and waits for the server to accept or refuse
        /// COM-PORT-OPTION.
        ///
        /// - Returns: a warning naming the address when the server refused or did not
        ///   answer; `nil` when it accepted.
        mutating func negotiate() throws(SerialError) -> String? {
            try send(state.negotiation.opening())
            let deadline = Deadline(milliseconds: answerTimeout)
            while !state.negotiation.isComPortAccepted && !state.negotiation.isComPortRefused {
                guard try readOnce(until: deadline) != nil else { break }
            }
            let outcome =
                if state.negotiation.isComPortAccepted {
                    ""
                } else if state.negotiation.isComPortRefused {
                    "the server refused RFC 2217 serial port control (COM-PORT-OPTION)"
                } else {
                    "the server did not answer the RFC 2217 negotiation in \(answerTimeout / 1000) s "
                        + "(a raw TCP port? then use tcp://)"
                }
            if outcome.isEmpty { return nil }
            return "\(name): \(outcome); carrying on with raw data at the server's serial settings"
        }

        /// Applies the serial settings, DTR/RTS, the DTR pulse and the break.
        ///
        /// - Returns: the settings as the server answered them (``settingsReport(asked:)``).
        mutating func configure(_ setup: PortSetup) throws(SerialError) -> SettingsReport {
            var settings = ComPortOption.settings(for: setup.configuration)
            switch setup.dtr {
            case .keep: break
            case .on: settings.append(.control(.dtrOn))
            case .off: settings.append(.control(.dtrOff))
            }
            switch setup.rts {
            case .keep: break
            case .on: settings.append(.control(.rtsOn))
            case .off: settings.append(.control(.rtsOff))
            }
            try exchange(settings)
            let report = settingsReport(asked: setup.configuration)
            if let pulse = setup.pulseDTR { try pulseDTR(milliseconds: pulse) }
            if let length = setup.breakLength { try sendBreak(milliseconds: length) }
            return report
        }

        /// The server's answers to `SET-BAUDRATE`, `SET-DATASIZE`, `SET-PARITY`,
        /// `SET-STOPSIZE` and the flow control's `SET-CONTROL`, read as the port's
        /// settings: a value other than the one asked is a mismatch naming it (a stop
        /// size of 1.5 reads `1.5`, a code RFC 2217 does not define `code N`); a setting
        /// the server did not answer is a mismatch whose actual value is `not confirmed`,
        /// and the port's settings show the value asked for it.
        func settingsReport(asked requested: SerialConfiguration) -> SettingsReport {
            func answer(_ command: ComPortOption.Command) -> UInt8? {
                answers[command.rawValue + ComPortOption.replyOffset]?.first
            }
            var actual = requested
            // The settings whose answer says something a configuration cannot hold.
            var readings: [String: String] = [:]
            if let value = answers[ComPortOption.Command.setBaudRate.rawValue + ComPortOption.replyOffset] {
                if let rate = ComPortOption.baudRate(value) { actual.baudRate = rate }
            } else {
                readings["baud rate"] = "not confirmed"
            }
            if let size = answer(.setDataSize) {
                actual.dataBits = Int(size)
            } else {
                readings["data bits"] = "not confirmed"
            }
            if let code = answer(.setParity) {
                if let parity = Parity.allCases.first(where: { ComPortOption.parityCode($0) == code }) {
                    actual.parity = parity
                } else {
                    readings["parity"] = "code \(code)"
                }
            } else {
                readings["parity"] = "not confirmed"
            }
            switch answer(.setStopSize) {
            case let size? where size == 1 || size == 2: actual.stopBits = Int(size)
            case 3: readings["stop bits"] = "1.5"
            case let code?: readings["stop bits"] = "code \(code)"
            case nil: readings["stop bits"] = "not confirmed"
            }
            let controls = answersReceived(ComPortOption.Command.setControl.rawValue + ComPortOption.replyOffset)
            let flows = FlowControl.allCases.map { ($0, ComPortOption.flowControl($0).rawValue) }
            if let flow = controls.lazy.compactMap({ value in flows.first { $0.1 == value.first }?.0 }).first {
                actual.flowControl = flow
            } else {
                readings["flow control"] = "not confirmed"
            }
            let unreadable = requested.settingValues.compactMap { asked in
                readings[asked.setting].map {
                    SettingMismatch(setting: asked.setting, requested: asked.value, actual: $0)
                }
            }
            return SettingsReport(actual: actual, mismatches: requested.mismatches(in: actual) + unreadable)
        }

        /// DTR off for `milliseconds` ms, then on.
        mutating func pulseDTR(milliseconds: Int) throws(SerialError) {
            try exchange([.control(.dtrOff)], settles: false)
            usleep(UInt32(clamping: milliseconds * 1000))
            try exchange([.control(.dtrOn)])
        }

        /// A break of `milliseconds` ms (`SET-CONTROL` BREAK-ON, then BREAK-OFF).
        mutating func sendBreak(milliseconds: Int) throws(SerialError) {
            try exchange([.control(.breakOn)], settles: false)
            usleep(UInt32(clamping: milliseconds * 1000))
            try exchange([.control(.breakOff)])
        }

        /// Sends `settings` and waits for an answer to each (masks excepted: not every
        /// server answers those) and for the answers in `also` (codes); then, when
        /// `settles`, for the line to be quiet (at open: a late notification is taken
        /// here rather than by the port loop).
        mutating func exchange(
            _ settings: [ComPortOption.Setting], also: [UInt8] = [], settles: Bool = true
        ) throws(SerialError) {
            var expected: [UInt8: Int] = [:]
            for setting in settings where setting.command.rawValue <= ComPortOption.Command.setControl.rawValue {
                expected[setting.command.rawValue + ComPortOption.replyOffset, default: 0] += 1
            }
            for code in also { expected[code, default: 0] += 1 }
            try send(settings.flatMap(\.message))
            let deadline = Deadline(milliseconds: timeout)
            while expected.values.contains(where: { $0 > 0 }) {
                guard let codes = try readOnce(until: deadline) else { break }
                for code in codes { expected[code]? -= 1 }
            }
            guard settles else { return }
            let settled = ContinuousClock.now + .milliseconds(RFC2217Port.settleLimit)
            while ContinuousClock.now < settled,
                try readOnce(until: Deadline(milliseconds: RFC2217Port.settleTime)) != nil
            {}
        }

        /// Waits for one read and handles it: answers negotiations, records
        /// COM-PORT-OPTION answers, keeps data for later.
        ///
        /// - Returns: the codes of the COM-PORT-OPTION answers read, in order; nil when
        ///   `deadline` passed with nothing to read, or ``RFC2217Port/maximumEarlyData``
        ///   bytes of data wait already (nothing is read).
        private mutating func readOnce(until deadline: Deadline) throws(SerialError) -> [UInt8]? {
            guard state.early.count < RFC2217Port.maximumEarlyData, connection.waits(for: POLLIN, until: deadline)
            else { return nil }
            let count = try receive()
            if count == 0 { throw closedFailure() }
            guard count > 0 else { return [] }
            let (replies, received) = state.handleCommands(name: name)
            if let failure = state.failure { throw failure }
            if !replies.isEmpty { try send(replies) }
            for (code, value) in received {
                answers[code] = value
                if log.count < RFC2217Port.maximumAnswersRecorded { log.append((code, value)) }
            }
            return received.map(\.code)
        }
    }
}
