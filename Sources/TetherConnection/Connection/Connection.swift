import TetherCommandLine
import TetherDeviceSettings
import TetherModel
import TetherPresenter
import TetherSerial
import TetherSimulator
import TetherViews

/// An open device connection and the view it renders to — the composition root's
/// wiring of transport, Model, Presenter and View for one command.
///
/// With `--sim` the simulator runs in-process (see ``OpenedDevice``).
package final class Connection {
    /// The device (Model).
    package var device: Device { opened.device }
    /// The name shown to the user: the port as typed, or `sim:PROFILE (/dev/pts/N)`.
    package var displayName: String { opened.displayName }
    /// The view chosen by `--format`, or the one the command gave (with the `--log`
    /// file's JSON view beside it).
    package let view: any DeviceView
    /// The dialect's `--dialect` name.
    package var dialectName: String { opened.dialectName }
    /// The line end the dialect writes after each command.
    package var terminator: Terminator { opened.dialect.terminator }
    /// The open port under the device (``OpenedDevice/transport``).
    package var transport: any SerialTransport { opened.transport }
    private let opened: OpenedDevice
    /// `--log`'s file, if any.
    private let log: LogFile<any DeviceView>?

    /// Opens the port (or starts the simulator and opens its pty), waiting for it with
    /// `--wait`; as ``HardwareOptions/reconnection`` says, the device reopens it after a
    /// disconnect. Events go to `view`, by default the event log `--format` chooses.
    ///
    /// - Throws: ``CommandFailure`` with the exit code for the failure (port not found,
    ///   unavailable, I/O error).
    ///
    /// - Parameters:
    ///   - view: the view to use instead of the one `--format` chooses (`connect` on a
    ///     terminal).
    ///   - peer: with `--sim`, the simulated device instead of the profile's (see
    ///     ``OpenedDevice``).
    ///   - isShown: the received lines the view shows (`monitor --only`); the `--log`
    ///     file has every line.
    package init(
        _ options: ConnectionOptions, view: (any DeviceView)? = nil, peer: (any SimulatedDevice)? = nil,
        showing isShown: (@Sendable (ViewLine) -> Bool)? = nil
    ) async throws(CommandFailure) {
        // Before the port opens: a bad file ends nothing begun.
        let symbols = try FirmwareFile.symbols(options.settings.elf)
        let log = try options.logFile(showing: .eventLog)
        self.log = log
        let target: PortTarget
        if options.usesSimulator {
            target = .simulator(profile: options.simulatorProfile ?? SimulatorProfile.defaultName)
        } else if let address = options.address {
            target = .port(address)
        } else if options.hardware.match != nil {
            target = .match
        } else {
            throw CommandFailure(usage: "Missing expected argument '<port>' (or give '--sim')")
        }
        let shown: any DeviceView
        do throws(UsageError) {
            let made = if let view { view } else { try options.view(.eventLog) }
            shown = if let isShown { MatchingLinesView(made, showing: isShown) } else { made }
        } catch {
            throw CommandFailure(usage: error.message)
        }
        let chosen: any DeviceView = if let log { FanOutView([shown, log.view]) } else { shown }
        self.view = chosen
        opened = try await OpenedDevice(
            target, settings: options.settings, hardware: options.hardware, symbols: symbols,
            faults: options.simulatorFaults,
            waiting: { Presenter(port: $0).presentWaiting(for: $0, to: chosen) },
            refused: { name, events in
                // The records JSON and the log would have had; text has the error's message.
                let records = FanOutView(
                    (view == nil && options.format.isForPrograms ? [shown] : []) + [log?.view].compactMap { $0 })
                var presenter = Presenter(port: name)
                presenter.present(events, to: records)
            }, peer: peer)
        log?.whenWriteFails { [device] in device.stop(reason: LogFileStop.reason) }
    }

    /// Renders the device's events on the view in a task, from now until the device
    /// closes or `isDone` says so; `observe` sees each record after it is rendered.
    /// With `includesBytes` the view also gets every chunk read from the port
    /// (``DeviceView/renderReceived(_:bytes:state:)``: `connect`'s terminal), as does a
    /// view that shows the byte stream (``DeviceView/showsReceivedBytes``: a transcript).
    /// With `onDeviceLoop` the task runs on the device's loop thread
    /// (``Device/executor``): a batch of events is rendered in the loop turn that read
    /// it, without waking a thread of Swift's pool (`query`, whose output is a reply per
    /// command; a view that blocks on its output holds up the port meanwhile).
    package func startPresenting(
        showsPendingText: Bool = true, includesBytes: Bool = false, onDeviceLoop: Bool = false,
        observe: @escaping @Sendable (ViewRecord, ViewState) -> Void = { _, _ in },
        until isDone: @escaping @Sendable (ViewState) -> Bool = { _ in false }
    ) -> Task<ViewState, Never> {
        let events = device.events(.lossless, includesBytes: includesBytes || view.showsReceivedBytes)
        let view = self.view
        let name = displayName
        let facts = opened.facts
        let dialect = opened.dialect
        return Task(executorPreference: onDeviceLoop ? device.executor : nil) {
            var presenter = Presenter(port: name, facts: facts, dialect: dialect)
            presenter.showsPendingText = showsPendingText
            return await presenter.present(events, to: view, observe: observe, until: isDone)
        }
    }

    /// - Throws: ``CommandFailure`` (74) when the `--log` file could not be written
    ///   (the device was closed then, ending the session).
    package func checkLog() throws(CommandFailure) {
        try log?.check()
    }

    /// Closes the device (for `reason`, see ``Device/close(reason:)``) and stops the
    /// simulator, if any.
    package func shutdown(reason: String? = nil) async {
        await opened.shutdown(reason: reason)
    }
}
