import TetherTransfer

/// A file transfer the port loop performs (``Device/transfer(_:report:)``): while it
/// runs it owns the byte stream — every byte read goes to its machine, not to the
/// session, and the session's requests wait — and its writes go out at once, unpaced.
struct RunningTransfer {
    /// The protocol's state machine.
    var machine: any TransferMachine
    /// Told each ``TransferEvent``, on the port loop thread: it must not block.
    let report: @Sendable (TransferEvent) -> Void
    /// The caller of ``Device/transfer(_:report:)``.
    let done: CheckedContinuation<TransferOutcome, Never>
}

extension LoopState {
    /// Starts `transfer`: holds the session's requests and performs the machine's start.
    ///
    /// - Returns: `false` (and resumes nobody) when the device is away or over, or a
    ///   transfer is already running.
    mutating func begin(_ transfer: RunningTransfer, now: ContinuousClock.Instant) -> Bool {
        guard !isClosing, self.transfer == nil, transport != nil else { return false }
        switch phase {
        case .created, .catchingUp, .connected: break
        case .away, .ended: return false
        }
        perform(session.endListening(now: now), now: now)
        self.transfer = transfer
        session.holdRequests()
        performTransfer { $0.start(now: now) }
        return true
    }

    /// Runs `step` on the running transfer's machine and performs what it returns:
    /// writes ahead of everything not yet written, reports, and the end — which
    /// releases the session's requests and resumes the caller.
    mutating func performTransfer(
        _ step: (inout any TransferMachine) -> [TransferAction], now: ContinuousClock.Instant = .now
    ) {
        guard var running = transfer else { return }
        let actions = step(&running.machine)
        transfer = running
        var wrote = false
        for action in actions {
            switch action {
            case .write(let bytes):
                output.insertImmediate(bytes)
                wrote = true
            case .report(let event):
                running.report(event)
            case .finished(let outcome):
                transfer = nil
                if wrote { flush(now: now) }
                wrote = false
                perform(session.releaseRequests(now: now), now: now)
                running.done.resume(returning: outcome)
            }
        }
        if wrote { flush(now: now) }
    }

    /// Ends the running transfer, if any, with `failure` (the device went away or was
    /// closed), writing nothing.
    mutating func abandonTransfer(_ failure: TransferFailure) {
        guard let running = transfer else { return }
        transfer = nil
        running.done.resume(returning: .failed(failure))
    }
}
