import Testing
import TetherTransfer

@testable import TetherPresenter

/// What `send` and `receive` report as a transfer runs (docs/JSON.md, `transfer` records).
struct TransferPresenterTests {
    /// A YMODEM batch of a 200 KiB file in 2 s and a 1 KiB one in 8 s more: the summary's
    /// rate is every byte over the whole 10 s, not the last file's rate (128 B/s), which
    /// `tether send` printed as "in 18.6 s (1.0 MiB/s …)".
    @Test func theSummaryRateCoversEveryFileAndTheWholeTime() {
        let began = ContinuousClock.now
        var presenter = TransferPresenter(port: "/dev/pts/3", direction: "send", protocol: .ymodem, now: began)
        _ = presenter.status(for: .started(name: "big.bin", size: 204_800), now: began)
        _ = presenter.status(
            for: .progress(TransferProgress(bytes: 204_800, total: 204_800, retries: 0)), now: began + .seconds(2))
        _ = presenter.status(for: .started(name: "small.bin", size: 1024), now: began + .seconds(2))
        let last = presenter.status(
            for: .progress(TransferProgress(bytes: 1024, total: 1024, retries: 0)), now: began + .seconds(10))
        #expect(last?.rate == 128)
        let files = [
            TransferFile(name: "big.bin", data: [UInt8](repeating: 0, count: 204_800)),
            TransferFile(name: "small.bin", data: [UInt8](repeating: 0, count: 1024)),
        ]
        let done = presenter.status(for: .completed(files: files), now: began + .seconds(10))
        #expect(done.stage == .done)
        #expect(done.elapsed == .seconds(10))
        #expect(done.rate == Double(204_800 + 1024) / 10)
    }
}
