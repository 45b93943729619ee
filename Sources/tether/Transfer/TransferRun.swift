import Glibc
import TetherModel
import TetherPresenter
import TetherTransfer
import TetherViews

/// One transfer of `send` or `receive` on an open connection: shows its progress
/// (``TransferPresenter`` → ``TransferView``), cancels it with CAN CAN on Ctrl-C (or
/// another trapped signal), and closes the device after it.
enum TransferRun {
    /// What the transfer ended with.
    struct Result {
        var outcome: TransferOutcome
        /// The files received whole, in order (also those of a batch that failed later).
        var received: [TransferFile]
        /// The exit code for the outcome (the signal's, when one cancelled it).
        var code: ExitCode
    }

    /// Runs `machine` on `connection`'s device, then closes the device; with `command`
    /// (`--command`'s bytes) types it and the dialect's line end first
    /// (``CommandedTransfer``).
    static func run(
        _ machine: some TransferMachine, on connection: Connection, direction: String, protocol kind: TransferProtocol,
        view: any TransferView, command: [UInt8]? = nil
    ) async -> Result {
        if let command {
            let typed = CommandedTransfer(command: connection.device.dialect.encode(command), then: machine)
            return await run(typed, on: connection, direction: direction, protocol: kind, view: view)
        }
        let device = connection.device
        let (events, sink) = AsyncStream.makeStream(of: (TransferEvent, ContinuousClock.Instant).self)
        var presenter = TransferPresenter(
            port: connection.displayName, direction: direction, protocol: kind, now: .now)
        // Started by the transfer, so a receiver's first request waiting at open is its.
        let transferring = Task {
            await device.transfer(machine) { sink.yield(($0, .now)) }
        }
        let trap = SignalTrap()
        let signals = trap.received
        let interruption = Task { () -> ExitCode? in
            for await signal in signals {
                transferring.cancel()
                return SignalTrap.exitCode(for: signal)
            }
            return nil
        }
        let ended = Task {
            let outcome = await transferring.value
            sink.finish()
            return outcome
        }
        var received: [TransferFile] = []
        for await (event, time) in events {
            if case .received(let file) = event { received.append(file) }
            if let status = presenter.status(for: event, now: time) { view.render(transfer: status) }
        }
        let outcome = await ended.value
        view.render(transfer: presenter.status(for: outcome, now: .now))
        interruption.cancel()
        let signalled = await interruption.value
        trap.cancel()
        await connection.shutdown()
        let code = TransferOptions.exitCode(for: outcome)
        return Result(outcome: outcome, received: received, code: code == .interrupted ? signalled ?? code : code)
    }
}
