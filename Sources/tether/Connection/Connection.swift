import TetherModel
import TetherPresenter
import TetherSerial
import TetherSimulator
import TetherViews

/// An open device connection and the view it renders to — the composition root's
/// wiring of transport, Model, Presenter and View for one command.
///
/// With `--sim` the simulator runs in-process and is opened through the very same
/// libserialport path (``SerialPort``) as hardware.
final class Connection {
    /// The device (Model).
    let device: Device
    /// The name shown to the user: the port as typed, or `sim (/dev/pts/N)`.
    let displayName: String
    /// The view chosen by `--format`.
    let view: any DeviceView
    private let simulator: Simulator?

    /// Opens the port (or starts the simulator and opens its pty), waiting for it with
    /// `--wait`; with ``HardwareOptions/reconnects`` the device reopens it after a
    /// disconnect.
    ///
    /// - Throws: ``CommandFailure`` with the exit code for the failure (port not found,
    ///   unavailable, I/O error).
    init(_ options: ConnectionOptions) async throws(CommandFailure) {
        var simulator: Simulator?
        let path: String?
        if let profile = options.simulatorProfile {
            do {
                let started = try Simulator(device: ProfileDevice(profile: profile))
                simulator = started
                path = started.devicePath
            } catch {
                throw CommandFailure("cannot start the simulator: \(error)", code: .ioError)
            }
        } else if let port = options.port {
            path = port
        } else if options.hardware.match != nil {
            path = nil
        } else {
            throw CommandFailure(usage: "Missing expected argument '<port>' (or give '--sim')")
        }
        let opener = options.hardware.opener(path: path, configuration: options.configuration)
        let port: any SerialTransport
        do {
            port = try await options.hardware.openFirst(with: opener, path: path)
        } catch {
            simulator?.stop()
            throw error
        }
        self.simulator = simulator
        displayName = simulator == nil ? path ?? port.name : "sim (\(port.name))"
        device = Device(
            transport: port, name: displayName, dialect: options.dialect, settings: options.configuration.summary,
            reopener: options.hardware.reconnects && simulator == nil ? opener : nil)
        switch options.format {
        case .text: view = TextView(showsTimestamps: options.showsTimestamps)
        case .json: view = JSONView()
        }
    }

    /// Renders the device's events on the view in a task, from now until the device
    /// closes; `observe` sees each record after it is rendered.
    func startPresenting(
        observe: @escaping @Sendable (ViewRecord, ViewState) -> Void = { _, _ in }
    ) -> Task<ViewState, Never> {
        let events = device.events()
        let view = self.view
        let name = displayName
        return Task {
            var presenter = Presenter(port: name)
            return await presenter.present(events, to: view, observe: observe)
        }
    }

    /// Closes the device and stops the simulator, if any.
    func shutdown() async {
        await device.close()
        simulator?.stop()
    }
}
