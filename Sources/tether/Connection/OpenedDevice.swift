import TetherModel
import TetherSerial
import TetherSimulator

/// Where a device is: a serial port by path, or a simulator started in-process.
enum PortTarget: Equatable {
    /// A device node or a link to one.
    case path(String)
    /// An in-process simulator running a ``SimulatorProfile``.
    case simulator(profile: String)
}

/// One device opened for a command, with the simulator behind it, if any.
///
/// A simulator's pty is opened through the very same libserialport path
/// (``SerialPort``) as hardware.
final class OpenedDevice {
    /// The device (Model), not yet started.
    let device: Device
    /// The name shown to the user: the port as typed, or `sim (/dev/pts/N)`.
    let displayName: String
    private let simulator: Simulator?

    /// Opens `target` with `configuration`.
    ///
    /// - Throws: ``CommandFailure`` with the exit code for the failure: port not found
    ///   (66), unavailable (69), I/O error (74); an unknown simulator profile is a
    ///   usage error (64).
    init(_ target: PortTarget, configuration: SerialConfiguration) throws(CommandFailure) {
        var simulator: Simulator?
        let path: String
        var dialect: any Dialect = LineDialect()
        switch target {
        case .path(let port):
            path = port
        case .simulator(let profile):
            guard let made = SimulatorProfile.make(profile) else {
                let known = SimulatorProfile.names.map { "'\($0)'" }.joined(separator: ", ")
                throw CommandFailure(usage: "Unknown simulator profile '\(profile)'. Profiles: \(known).")
            }
            do {
                let started = try Simulator(device: made.device)
                simulator = started
                path = started.devicePath
                dialect = made.dialect
            } catch {
                throw CommandFailure("cannot start the simulator: \(error)", code: .ioError)
            }
        }
        let port: SerialPort
        do {
            port = try SerialPort.open(path, configuration: configuration)
        } catch {
            simulator?.stop()
            throw CommandFailure(error)
        }
        self.simulator = simulator
        displayName = simulator == nil ? path : "sim (\(path))"
        device = Device(transport: port, name: displayName, dialect: dialect, settings: configuration.summary)
    }

    /// Closes the device and stops the simulator, if any.
    func shutdown() async {
        await device.close()
        simulator?.stop()
    }
}
