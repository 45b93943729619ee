import TetherCommandLine
import TetherLibC
import TetherModel
import TetherSerial

/// The options for real hardware life, shared by the device commands: choosing the
/// port by identity (`--match`), waiting for it (`--wait`), DTR/RTS on open, a reset
/// pulse or break after open, and reconnecting (`--no-reconnect`, only for commands
/// that reconnect). See docs/HARDWARE.md.
struct HardwareOptions {
    static let match = Option<PortMatch?>(
        "--match", "-m", value: "id",
        help: """
            Open the one port with this identity instead of <port>: VID:PID[:SERIAL]
            in hex, e.g. 0403:6001:A1B2C3, or part of its product or manufacturer
            name (see 'tether list'). Looked up again when reconnecting.
            """
    ) { text throws(InvalidValue) in
        do throws(PortMatch.ParseError) {
            return try PortMatch(parsing: text)
        } catch {
            throw .message(error.description)
        }
    }
    static let wait = Flag("--wait", help: "Wait for a port that does not exist yet (or a --match that finds none).")
    static let waitTimeout = Option<Duration?>(
        "--wait-timeout", value: "seconds",
        help: "Wait at most this many seconds for the port (implies --wait); then exit 66.", range: .seconds)
    static let dtr = Option<SerialPort.LineControl>(
        "--dtr", value: "mode",
        help: "DTR on open: keep (leave it, and keep it on close: no board reset), on\nor off.", default: .keep,
        parse: Parse.choice(SerialPort.LineControl.self))
    static let rts = Option<SerialPort.LineControl>(
        "--rts", value: "mode", help: "RTS on open: keep, on or off.", default: .keep,
        parse: Parse.choice(SerialPort.LineControl.self))
    static let pulseDTR = Option<Int?>(
        "--pulse-dtr", value: "ms",
        help: "After each open, drop DTR for this many ms, then raise it (reset\nsequence of Arduino-style boards).",
        range: milliseconds)
    static let breakLength = Option<Int?>(
        "--break", value: "ms", help: "After each open, send a break of this many ms.", range: milliseconds)
    static let strictSettings = Flag(
        "--strict-settings", help: "Exit (78) when the port does not have a serial setting as asked.")

    /// The options every device command takes.
    static let options: [OptionDeclaration] = [
        match.declaration, wait.declaration, waitTimeout.declaration, dtr.declaration, rts.declaration,
        pulseDTR.declaration, breakLength.declaration, strictSettings.declaration,
    ]

    /// The option of commands that reconnect (`monitor`, `connect`).
    static let noReconnect = Flag(
        "--no-reconnect",
        help: "When the device goes away, exit (74) instead of waiting for it to come\nback and reopening it.")

    private static let milliseconds = ValueRange.integers(atLeast: 1, "ms")

    /// The port's identity, when `--match` replaces the path.
    var match: PortMatch?
    /// Whether to wait for the port before the first open.
    var waits: Bool
    /// How long to wait; `nil` waits until interrupted.
    var waitTimeout: Duration?
    /// Exclusive access and DTR/RTS on open.
    var openOptions: SerialPort.OpenOptions
    /// DTR off time of the reset pulse after each open, in ms.
    var pulseDTR: Int?
    /// Length of the break after each open, in ms.
    var breakLength: Int?
    /// `--strict-settings`: a serial setting the port does not have as asked fails the
    /// open instead of being a warning.
    var requiresSettings: Bool
    /// Which ports a disconnect is followed by waiting and reopening for: every port
    /// for commands that take ``noReconnect`` unless `--no-reconnect` was given (`run`
    /// narrows it to ``Reconnection/remotePorts``), else none.
    var reconnection: Reconnection
    /// The pty link of the last open, shared by the openers made here: a reconnect
    /// does not reopen a link to a pty that was not made again.
    let links = PseudoTerminalLinkWatch()

    /// Reads the options.
    init(_ arguments: ParsedArguments) {
        match = arguments[Self.match]
        waitTimeout = arguments[Self.waitTimeout]
        waits = arguments[Self.wait] || waitTimeout != nil
        openOptions = SerialPort.OpenOptions(dtr: arguments[Self.dtr], rts: arguments[Self.rts])
        pulseDTR = arguments[Self.pulseDTR]
        breakLength = arguments[Self.breakLength]
        reconnection =
            arguments.spec.takes(Self.noReconnect.declaration) && !arguments[Self.noReconnect] ? .everyPort : .never
        requiresSettings = arguments[Self.strictSettings]
    }

    /// The DTR/RTS, pulse or break option given, if any: raw TCP cannot carry them.
    var lineOptionGiven: String? {
        if openOptions.dtr != .keep { return Self.dtr.declaration.key }
        if openOptions.rts != .keep { return Self.rts.declaration.key }
        if pulseDTR != nil { return Self.pulseDTR.declaration.key }
        if breakLength != nil { return Self.breakLength.declaration.key }
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
    func opener(
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
    static func checked(_ port: any SerialTransport, requiresSettings: Bool) throws(SerialError)
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
    func openFirst(
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
    static func selectionFailure(_ match: PortMatch) -> CommandFailure? {
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
    static func describe(_ port: SerialPortInfo) -> String {
        var text = "  \(port.name)"
        if let match = port.matchValue { text += "  " + match }
        let product = port.product ?? port.description
        if !product.isEmpty { text += "  \(product)" }
        if !port.byIDLinks.isEmpty { text += "  (\(port.byIDLinks.joined(separator: ", ")))" }
        return text
    }
}
