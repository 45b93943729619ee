import Synchronization
import TetherTransfer

extension Device {
    /// Runs a file transfer (XMODEM or YMODEM, a `TransferSender` or
    /// `TransferReceiver`) on the port loop and returns how it ended.
    ///
    /// While it runs the transfer owns the byte stream: every byte read goes to
    /// `machine` — not framed into lines, not published as `received` — and the
    /// requests queued meanwhile wait; its writes go out at once, ahead of anything
    /// not yet written and unpaced; its timeouts are deadlines of the loop's `poll`,
    /// so no thread sleeps. What the device sends after the transfer is the session's
    /// again (docs/TRANSFERS.md, "On the port loop").
    ///
    /// On a device not yet started this starts it (``start()``) with the transfer in
    /// place, so the input waiting at open — a receiver's first `C` — goes to the
    /// transfer, not to the session.
    ///
    /// Cancelling the calling task cancels the transfer: the machine writes CAN CAN
    /// (`TransferMachine/cancel(now:)`) and the outcome is
    /// `TransferFailure/cancelled`.
    ///
    /// - Parameters:
    ///   - machine: the protocol's state machine, not yet started.
    ///   - report: told each `TransferEvent` (a file began, progress, a file
    ///     received) on the port loop thread, in order: it must not block (hand the
    ///     event on, as to an `AsyncStream`).
    /// - Returns: the outcome; `TransferFailure/disconnected(reason:)` when the
    ///   device is not connected, another transfer runs, or the device goes away or is
    ///   closed during the transfer.
    public func transfer(
        _ machine: some TransferMachine, report: @escaping @Sendable (TransferEvent) -> Void = { _ in }
    ) async -> TransferOutcome {
        let loop = self.loop
        let isCancelled = CancelFlag()
        let (started, starts) = AsyncStream.makeStream(of: Bool.self)
        return await withTaskCancellationHandler {
            async let outcome = withCheckedContinuation { (done: CheckedContinuation<TransferOutcome, Never>) in
                let began = loop.update { state -> Bool? in
                    let now = ContinuousClock.now
                    let isCreated = if case .created = state.phase { true } else { false }
                    let running = RunningTransfer(machine: machine, report: report, done: done)
                    guard state.begin(running, now: now) else { return nil }
                    if isCancelled.value.withLock({ $0 }) { state.performTransfer({ $0.cancel(now: now) }, now: now) }
                    return isCreated
                }
                starts.yield(began == true)
                starts.finish()
                if began == nil {
                    done.resume(returning: .failed(.disconnected(reason: "the device is not connected, or busy")))
                }
            }
            for await needsStart in started where needsStart { await start() }
            return await outcome
        } onCancel: {
            isCancelled.value.withLock { $0 = true }
            loop.update { state in
                let now = ContinuousClock.now
                state.performTransfer({ $0.cancel(now: now) }, now: now)
            }
        }
    }
}

/// Whether the task of a ``Device/transfer(_:report:)`` was cancelled before its
/// transfer began.
private final class CancelFlag: Sendable {
    let value = Mutex(false)
}
