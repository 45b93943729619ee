import TetherCommandLine
import TetherDeviceSettings
import TetherModel
import TetherPresenter
import TetherSerial
import TetherSimulator

/// Where a device is: a serial port by path or network address, the port `--match`
/// selects, or a simulator started in-process.
package enum PortTarget: Equatable {
    /// A device node or a link to one, or a port exported over TCP (`tcp://`,
    /// `rfc2217://`).
    case port(PortAddress)
    /// The one port whose listing matches (`--match`), looked up at each open.
    case match
    /// An in-process simulator running a ``SimulatorProfile``.
    case simulator(profile: String)

    /// Whether this is an in-process simulator.
    package var isSimulator: Bool {
        if case .simulator = self { true } else { false }
    }
}

/// One device opened for a command, with the simulator behind it, if any — the one
/// place where a port is opened, its dialect chosen and its Model built.
///
/// A simulator's pty is opened through the very same libserialport path
/// (``SerialPort``) as hardware; hardware ports honour `--wait`, DTR/RTS, the DTR
/// pulse and break, and reconnect as ``HardwareOptions/reconnection`` says.
package final class OpenedDevice {
    /// The device (Model), not yet started.
    package let device: Device
    /// The name shown to the user: the port as typed, or `sim:PROFILE (/dev/pts/N)`.
    package let displayName: String
    /// The dialect's `--dialect` name (`line`, `at`, `scpi`, `prompt`, `nmea`).
    package let dialectName: String
    /// The dialect, for the presenter (the values it reads in lines: `nmea`).
    package let dialect: any Dialect
    /// What is known of the device before it speaks: a simulator profile's identity and
    /// the units of its readings; nothing for hardware.
    package let facts: DeviceFacts
    /// The port the device was built over, open: its descriptor is what
    /// `send`/`receive --program` hand to a program while the device is not started.
    package let transport: any SerialTransport
    /// Whether the device reopens its port after a disconnect (``HardwareOptions/reconnection``).
    package let reconnects: Bool
    private let simulator: Simulator?

    /// Opens `target` with `settings`: its serial settings, `--rs485` and the
    /// `--reset` run after each open; the Model built with their pacing
    /// (`--char-delay`, `--command-delay`), `--discard-input` and dialect (by default
    /// the simulator profile's). A simulator runs with `faults`.
    ///
    /// - Parameters:
    ///   - waiting: told what `--wait` waits for, before it starts to wait (see
    ///     ``Presenter/presentWaiting(for:at:to:)``).
    ///   - refused: with `--strict-settings`, given the port's name and the events of its
    ///     open (``DeviceEvent/opened(_:settings:as:)``) when it lacks a setting asked
    ///     for, before the port is closed and this throws (78).
    ///   - peer: with `--sim`, the simulated device to run instead of the profile's
    ///     (`send`/`receive`: the other side of a transfer, ``TransferPeer``); shown as
    ///     `sim:transfer`.
    ///
    /// - Throws: ``CommandFailure`` with the exit code for the failure: a dialect option
    ///   that does not fit or an unknown simulator profile (64), port not found (66),
    ///   unavailable (69), I/O error (74), a setting the port lacks with
    ///   `--strict-settings` (78).
    package init(
        _ target: PortTarget, settings: DeviceSettings, hardware: HardwareOptions,
        symbols: (any AddressSymbolizing)? = nil,
        faults: FaultPlan = FaultPlan(),
        waiting: (String) -> Void,
        refused: (String, [DeviceEvent]) -> Void = { _, _ in }, peer: (any SimulatedDevice)? = nil
    ) async throws(CommandFailure) {
        let (configuration, rs485) = (settings.configuration, settings.rs485)
        let dialect: any Dialect
        let port: any SerialTransport
        var known: DeviceFacts
        var reopener: PortOpener?
        switch target {
        case .simulator(let name):
            let profile = try SimulatorProfile.load(name)
            dialect = try Self.make(settings.dialect, defaults: profile)
            let started: Simulator
            let simulated = ProfileDevice(profile: profile)
            do {
                started = try Simulator(device: peer ?? simulated, faults: faults)
            } catch {
                throw CommandFailure("cannot start the simulator: \(error)", code: .ioError)
            }
            do {
                port = try SerialPort.open(started.devicePath, configuration: configuration)
            } catch {
                started.stop()
                throw CommandFailure(error)
            }
            simulator = started
            displayName = "sim:\(peer == nil ? name : "transfer") (\(started.devicePath))"
            known = peer == nil ? DeviceFacts(identity: simulated.identity, units: profile.readingUnits) : DeviceFacts()
        case .port, .match:
            dialect = try Self.make(settings.dialect, defaults: nil)
            let address: PortAddress? = if case .port(let address) = target { address } else { nil }
            if case .tcp = address, let option = hardware.lineOptionGiven {
                throw CommandFailure(
                    usage: "'\(option)' needs a serial port or an rfc2217:// address; tcp:// carries only data")
            }
            if address?.isRemote == true, hardware.waits {
                throw CommandFailure(
                    usage: "'--wait' applies only to a device path; a tcp:// or rfc2217:// port is connected at once")
            }
            let opener = hardware.opener(
                address: address, configuration: configuration, requiresSettings: false, rs485: rs485)
            let strictOpener = hardware.opener(address: address, configuration: configuration, rs485: rs485)
            let path = address?.description
            do {
                port = try await hardware.openFirst(with: opener, address: address, waiting: waiting)
            } catch  where error.code == .portNotFound && (path == "sim" || path?.hasPrefix("sim:") == true) {
                throw CommandFailure("\(error.message). Did you mean '--sim'?", code: error.code)
            }
            reopener = hardware.reconnection.applies(to: address) ? strictOpener : nil
            simulator = nil
            displayName = path ?? port.name
            known = DeviceFacts()
        }
        reconnects = reopener != nil
        dialectName = dialect.name
        known.commandTerminator = ViewLine.LineEnd(rawValue: dialect.terminator.rawValue)
        known.symbolizer = symbols
        known.crashFields = settings.crashFields
        facts = known
        self.dialect = dialect
        transport = port
        let report = port.settingsReport
        if hardware.requiresSettings, !report.mismatches.isEmpty {
            let name = displayName
            refused(
                name, DeviceEvent.opened(report, settings: Self.serverSettings) { .connected(port: name, settings: $0) }
            )
            port.close()
            simulator?.stop()
            throw CommandFailure(SerialError.settingsNotApplied(path: name, report.mismatches))
        }
        do {
            device = try Device(
                transport: port, name: displayName, dialect: dialect, settings: Self.serverSettings,
                pacing: settings.pacing, discardsWaitingInput: settings.discardsWaitingInput, reopener: reopener,
                openingSequence: settings.reset)
        } catch {
            port.close()
            simulator?.stop()
            throw CommandFailure(error)
        }
    }

    /// The settings shown for a port that does not report its own
    /// (``SerialTransport/settingsReport``): raw TCP, or an RFC 2217 server that
    /// refused serial port control; the others show what they read back.
    package static let serverSettings = "the server's settings"

    /// Closes the device (for `reason`, see ``Device/close(reason:)``) and stops the
    /// simulator, if any.
    package func shutdown(reason: String? = nil) async {
        await device.close(reason: reason)
        simulator?.stop()
    }

    private static func make(_ options: DialectOptions, defaults profile: DeviceProfile?) throws(CommandFailure)
        -> any Dialect
    {
        do {
            return try options.makeDialect(defaults: profile)
        } catch {
            throw CommandFailure(usage: error.message)
        }
    }
}
