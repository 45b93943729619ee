import TetherModel
import TetherPresenter
import TetherViews

/// An open device connection and the view it renders to — the composition root's
/// wiring of transport, Model, Presenter and View for one command.
///
/// With `--sim` the simulator runs in-process (see ``OpenedDevice``).
final class Connection {
    /// The device (Model).
    var device: Device { opened.device }
    /// The name shown to the user: the port as typed, or `sim:PROFILE (/dev/pts/N)`.
    var displayName: String { opened.displayName }
    /// The view chosen by `--format`.
    let view: any DeviceView
    private let opened: OpenedDevice

    /// Opens the port (or starts the simulator and opens its pty), waiting for it with
    /// `--wait`; with ``HardwareOptions/reconnects`` the device reopens it after a
    /// disconnect.
    ///
    /// - Throws: ``CommandFailure`` with the exit code for the failure (port not found,
    ///   unavailable, I/O error).
    init(_ options: ConnectionOptions) async throws(CommandFailure) {
        let target: PortTarget
        if options.usesSimulator {
            target = .simulator(profile: options.simulatorProfile ?? SimulatorProfile.defaultName)
        } else if let port = options.port {
            target = .path(port)
        } else if options.hardware.match != nil {
            target = .match
        } else {
            throw CommandFailure(usage: "Missing expected argument '<port>' (or give '--sim')")
        }
        opened = try await OpenedDevice(
            target, configuration: options.configuration, hardware: options.hardware, dialect: options.dialect,
            faults: options.simulatorFaults)
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
        let events = device.events(.lossless)
        let view = self.view
        let name = displayName
        return Task {
            var presenter = Presenter(port: name)
            return await presenter.present(events, to: view, observe: observe)
        }
    }

    /// Closes the device and stops the simulator, if any.
    func shutdown() async {
        await opened.shutdown()
    }
}
