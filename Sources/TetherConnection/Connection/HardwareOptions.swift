import TetherCommandLine
import TetherLibC
import TetherModel
import TetherSerial

/// What the device commands read for real hardware life: choosing the port by identity
/// (`--match`), waiting for it (`--wait`), DTR/RTS on open, a reset pulse or break after
/// open (``PortOptions``, ``PortControlOptions``), and reconnecting (``ReconnectOptions``,
/// only for commands that take it). See docs/HARDWARE.md.
package struct HardwareOptions {
    /// The port's identity, when `--match` replaces the path.
    package var match: PortMatch?
    /// Whether to wait for the port before the first open.
    package var waits: Bool
    /// How long to wait; `nil` waits until interrupted.
    package var waitTimeout: Duration?
    /// Exclusive access and DTR/RTS on open.
    package var openOptions: SerialPort.OpenOptions
    /// DTR off time of the reset pulse after each open, in ms.
    package var pulseDTR: Int?
    /// Length of the break after each open, in ms.
    package var breakLength: Int?
    /// `--strict-settings`: a serial setting the port does not have as asked fails the
    /// open instead of being a warning.
    package var requiresSettings: Bool
    /// Which ports a disconnect is followed by waiting and reopening for: every port
    /// for commands that take ``noReconnect`` unless `--no-reconnect` was given (`run`
    /// narrows it to ``Reconnection/remotePorts``), else none.
    package var reconnection: Reconnection
    /// The pty link of the last open, shared by the openers made here: a reconnect
    /// does not reopen a link to a pty that was not made again.
    package let links = PseudoTerminalLinkWatch()

    /// Reads the options.
    package init(_ arguments: ParsedArguments) {
        let port = arguments[PortOptions.self]
        let control = arguments[PortControlOptions.self]
        match = port.match
        waitTimeout = port.waitTimeout
        waits = port.wait || waitTimeout != nil
        openOptions = SerialPort.OpenOptions(dtr: control.dtr, rts: control.rts)
        pulseDTR = control.pulseDTR
        breakLength = control.breakLength
        let reconnect = arguments[ReconnectOptions.self]
        reconnection =
            arguments.spec.takes(reconnect.declared.noReconnect.declaration) && !reconnect.noReconnect
            ? .everyPort : .never
        requiresSettings = control.strictSettings
    }

    /// The DTR/RTS, pulse or break option given, if any: raw TCP cannot carry them.
    package var lineOptionGiven: String? {
        let control = PortControlOptions()
        if openOptions.dtr != .keep { return control.dtr.declaration.key }
        if openOptions.rts != .keep { return control.rts.declaration.key }
        if pulseDTR != nil { return control.pulseDTR.declaration.key }
        if breakLength != nil { return control.breakLength.declaration.key }
        return nil
    }

    /// An opener for the port at `address`, or for the port `--match` selects when
    /// `address` is nil (looked up again at each open, so a replugged adapter is found
    /// under its new node). Each open applies `configuration` and these options, then
    /// the DTR pulse and the break; over `rfc2217://` through RFC 2217 (a server that
    /// refuses it is a warning of the port's ``SettingsReport``, and the port carries on
    /// raw), over `tcp://` not at all (the server's settings apply). With
    /// `requiresSettings` (by default `--strict-settings`) a port that does not have
    /// every setting asked for is closed and the open fails
    /// (``checked(_:requiresSettings:)``). With `rs485` the port drives RTS as an
    /// RS-485 transceiver's enable (``RS485Port``; a local port only).
    package func opener(
        address: PortAddress?, configuration: SerialConfiguration, requiresSettings: Bool? = nil,
        rs485: RS485Settings? = nil
    ) -> PortOpener {
        let match = self.match
        let setup = PortSetup(
            configuration: configuration, dtr: openOptions.dtr, rts: openOptions.rts, pulseDTR: pulseDTR,
            breakLength: breakLength)
        let requiresSettings = requiresSettings ?? self.requiresSettings
        let links = links
        return PortOpener { () throws(SerialError) -> any SerialTransport in
            let port: any SerialTransport =
                if let address {
                    try address.open(setup, links: links)
                } else {
                    try SerialPort.open(match.map(PortSelection.node) ?? "", setup: setup)
                }
            let checked = try Self.checked(port, requiresSettings: requiresSettings)
            guard let rs485 else { return checked }
            guard let local = checked as? SerialPort else {
                checked.close()
                throw .io(
                    path: checked.name, function: "--rs485", errno: 0, message: "RS-485 needs a local serial port")
            }
            return try RS485Port(local, settings: rs485)
        }
    }

    /// `port` as it is; or, when `requiresSettings` and it does not have every serial
    /// setting asked for, a failure, the port closed.
    ///
    /// - Throws: ``SerialError/settingsNotApplied(path:_:)`` naming each mismatch.
    package static func checked(_ port: any SerialTransport, requiresSettings: Bool) throws(SerialError)
        -> any SerialTransport
    {
        let mismatches = port.settingsReport.mismatches
        guard requiresSettings, !mismatches.isEmpty else { return port }
        port.close()
        throw .settingsNotApplied(path: port.name, mismatches)
    }

    /// Opens the port the first time: at once, or after waiting for it with `--wait`,
    /// telling `waiting` what it waits for (the path, or `a port matching '…'`) once,
    /// before it starts to wait.
    ///
    /// - Throws: ``CommandFailure``: exit 66 when the port does not exist (or did not
    ///   appear in time, or no port matches; the message lists the ports present),
    ///   64 when several ports match (listed), and the transport error's code otherwise.
    package func openFirst(
        with opener: PortOpener, address: PortAddress?, waiting: (String) -> Void
    ) async throws(CommandFailure) -> any SerialTransport {
        let path = address?.description
        do throws(SerialError) {
            do throws(SerialError) {
                return try await opener.openOnce()
            } catch .notFound where waits {
                let what = path ?? match.map { "a port matching \(Quoted($0.description))" } ?? "the port"
                waiting(what)
                return try await opener.waitAndOpen(timeout: waitTimeout)
            }
        } catch {
            if let match, path == nil, let failure = Self.selectionFailure(match) { throw failure }
            if case .notFound = error, waits, let waitTimeout {
                throw CommandFailure(
                    "\(error) (waited \(Double(waitTimeout.milliseconds) / 1000) s)", code: .portNotFound)
            }
            throw CommandFailure(error)
        }
    }

    /// Why `match` selects no single port now, with the ports to choose from; `nil`
    /// when it does select one.
    package static func selectionFailure(_ match: PortMatch) -> CommandFailure? {
        let ports = (try? SerialPortInfo.list()) ?? []
        switch PortSelection(match, among: ports) {
        case .selected:
            return nil
        case .noMatch:
            return CommandFailure(
                "no serial port matches \(Quoted(match.description)). Ports present:",
                details: ports.isEmpty ? ["  (none)"] : ports.map(describe), code: .portNotFound)
        case .ambiguous(let candidates):
            return CommandFailure(
                "\(candidates.count) ports match \(Quoted(match.description)):",
                details: candidates.map(describe) + ["Give VID:PID:SERIAL, or the port's /dev/serial/by-id path."],
                code: .usage)
        }
    }

    /// One port for a message: node, match value, product and stable links.
    package static func describe(_ port: SerialPortInfo) -> String {
        var text = "  \(port.name)"
        if let match = port.matchValue { text += "  " + match }
        let product = port.product ?? port.description
        if !product.isEmpty { text += "  \(product)" }
        if !port.byIDLinks.isEmpty { text += "  (\(port.byIDLinks.joined(separator: ", ")))" }
        return text
    }
}
