import TetherTransfer

extension TransferPresenter {
    /// Runs `transfer` and shows it on `view` as it goes: each status this presenter
    /// gives for its events (``status(for:now:)-(TransferEvent,_)``), then the last one
    /// (``status(for:now:)-(TransferOutcome,_)``). `transfer` is given the report function
    /// to hand to `Device.transfer(_:report:)` (it may call it from any thread).
    ///
    /// Cancelling the calling task cancels `transfer` (the machine writes CAN CAN).
    ///
    /// - Parameters:
    ///   - view: where each status is shown.
    ///   - received: told each file that arrived whole, in order, as it arrives (the
    ///     receiving side writes it to disk).
    ///   - transfer: runs the transfer, handing its events to the report function it is given.
    /// - Returns: how the transfer ended.
    public mutating func present(
        to view: any TransferView, received: (TransferFile) -> Void = { _ in },
        _ transfer: @escaping @Sendable (_ report: @escaping @Sendable (TransferEvent) -> Void) async -> TransferOutcome
    ) async -> TransferOutcome {
        let (events, sink) = AsyncStream.makeStream(of: (TransferEvent, ContinuousClock.Instant).self)
        async let ended: TransferOutcome = {
            let outcome = await transfer { sink.yield(($0, .now)) }
            sink.finish()
            return outcome
        }()
        for await (event, time) in events {
            if case .received(let file) = event { received(file) }
            if let status = status(for: event, now: time) { view.render(transfer: status) }
        }
        let outcome = await ended
        view.render(transfer: status(for: outcome, now: .now))
        return outcome
    }
}
