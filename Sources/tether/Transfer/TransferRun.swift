import Glibc
import TetherConnection
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

    /// Runs `machine` on `connection`'s device, then closes the device
    /// (``Connection/drive(onSignal:_:)``); with `command` (`--command`'s bytes) types
    /// it and the dialect's line end first (``CommandedTransfer``).
    ///
    /// - Throws: ``CommandFailure`` (74) when the `--log` file could not be written.
    static func run(
        _ machine: some TransferMachine, on connection: Connection, direction: String, protocol kind: TransferProtocol,
        view: any TransferView, command: [UInt8]? = nil
    ) async throws(CommandFailure) -> Result {
        if let command {
            let typed = CommandedTransfer(command: connection.device.dialect.encode(command), then: machine)
            return try await run(typed, on: connection, direction: direction, protocol: kind, view: view)
        }
        let device = connection.device
        let name = connection.displayName
        let transferring = Task { () -> (TransferOutcome, [TransferFile]) in
            var presenter = TransferPresenter(port: name, direction: direction, protocol: kind, now: .now)
            var received: [TransferFile] = []
            // Started by the transfer, so a receiver's first request waiting at open is its.
            let outcome = await presenter.present(to: view, received: { received.append($0) }) { report in
                await device.transfer(machine, report: report)
            }
            return (outcome, received)
        }
        let ((outcome, received), signal) = try await connection.drive(onSignal: { _ in transferring.cancel() }) {
            await transferring.value
        }
        let code = TransferOptions.exitCode(for: outcome)
        let cancelledBy = code == .interrupted ? signal.map(SignalTrap.exitCode(for:)) : nil
        return Result(outcome: outcome, received: received, code: cancelledBy ?? code)
    }
}
