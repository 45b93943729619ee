import TetherPresenter
import TetherTransfer
import TetherViews

/// The escape key's file transfers (`y`, `x`, `Y`; docs/TRANSFERS.md, "In connect"):
/// the device's transfer on the port, its progress on the terminal's status line, and
/// the last line (`Sent 1 file by ymodem in …`, or why it failed) when it is over.
extension Console {
    /// Sends the file at `path` by `kind` (one file, with the protocol reference's limits).
    func transferFile(at path: String, by kind: TransferProtocol) async {
        let file: TransferFile
        do throws(LocalFile.Failure) {
            file = try LocalFile.read(path)
        } catch {
            terminal.endTransfer()
            terminal.write("\(error); nothing sent\n")
            return
        }
        terminal.showTransfer(
            "Sending \(file.name ?? path) by \(kind.name): waiting for the receiver (Ctrl-C cancels)")
        await run(TransferSender(kind, files: [file]), direction: "send", protocol: kind)
    }

    /// Receives files by `kind` into `folder` (`Y`: the current one), each written as
    /// it arrives (an existing file is kept: the new one is `NAME.1`, ``LocalFile``).
    func receiveFiles(by kind: TransferProtocol, into folder: String = ".") async {
        let terminal = self.terminal
        terminal.showTransfer("Receiving by \(kind.name): waiting for the sender (Ctrl-C cancels)")
        await run(TransferReceiver(kind), direction: "receive", protocol: kind) { file in
            do throws(LocalFile.Failure) {
                let path = try LocalFile.write(file, receivedBy: kind, at: folder, overwrites: false)
                terminal.write("received \(path) (\(file.data.count) bytes)\n")
            } catch {
                terminal.write("\(error)\n")
            }
        }
    }

    private func run(
        _ machine: some TransferMachine, direction: String, protocol kind: TransferProtocol,
        received: @escaping @Sendable (TransferFile) -> Void = { _ in }
    ) async {
        let device = self.device
        let view = ConsoleTransferView(terminal: terminal)
        let name = portName
        let transferring = Task {
            var presenter = TransferPresenter(port: name, direction: direction, protocol: kind, now: .now)
            return await presenter.present(to: view, received: received) { report in
                await device.transfer(machine, report: report)
            }
        }
        terminal.onTransferCancel { transferring.cancel() }
        _ = await transferring.value
    }
}
