import TetherPresenter
import TetherViews

/// A transfer on the console's terminal: its status line while it runs
/// (``TransferProgressBar/statusLine(_:)``), then the last line
/// (``TransferProgressBar/endLine(_:)``) as the terminal goes on.
struct ConsoleTransferView: TransferView {
    let terminal: any ConsoleScreen

    func render(transfer status: TransferStatus) {
        switch status.stage {
        case .start, .progress:
            terminal.showTransfer(TransferProgressBar.statusLine(status))
        case .done, .failed:
            terminal.endTransfer()
            terminal.write(TransferProgressBar.endLine(status) + "\n")
        }
    }
}
