import TetherModel
import TetherPresenter

extension Connection {
    /// Ends a live session with an exit code; yield at most once that matters (the
    /// first value wins).
    typealias Stop = AsyncStream<ExitCode>.Continuation

    /// Runs a long-lived session (`monitor`, `connect`) until the first of: `work` or
    /// `observe` calling `stop`, SIGINT/SIGTERM/SIGHUP (exit 128 + n), or the device
    /// ending for good (exit 74). Then stops the work, closes the device and waits for
    /// the view to render everything.
    ///
    /// - Parameters:
    ///   - includesBytes: the view also gets the bytes read (``startPresenting(showsPendingText:includesBytes:observe:until:)``).
    ///   - observe: sees each record after it is rendered.
    ///   - isDone: `true` when nothing more is to be rendered (the session then stops).
    ///   - work: what the session does meanwhile (read typed lines, sleep a duration).
    /// - Returns: the exit code of whatever stopped the session.
    /// - Throws: ``CommandFailure`` (74) when the `--log` file could not be written.
    func runUntilStopped(
        includesBytes: Bool = false,
        observe: @escaping @Sendable (ViewRecord, ViewState, Stop) -> Void = { _, _, _ in },
        until isDone: @escaping @Sendable (ViewState) -> Bool = { _ in false },
        work: @escaping @Sendable (Stop) async -> Void
    ) async throws(CommandFailure) -> ExitCode {
        let (stops, stop) = AsyncStream.makeStream(of: ExitCode.self)
        let presenting = startPresenting(
            includesBytes: includesBytes,
            observe: { record, state in
                observe(record, state, stop)
                if isDone(state) { stop.yield(.success) }
            }, until: isDone)
        let trap = SignalTrap()
        let signals = trap.received
        let watchers = [
            Task {
                _ = await presenting.value
                stop.yield(.ioError)
            },
            Task {
                for await signal in signals { stop.yield(SignalTrap.exitCode(for: signal)) }
            },
            Task { await work(stop) },
        ]
        await device.start()
        var reasons = stops.makeAsyncIterator()
        let code = await reasons.next() ?? .success
        for watcher in watchers { watcher.cancel() }
        trap.cancel()
        await shutdown(reason: SignalTrap.reason(for: code))
        _ = await presenting.value
        try checkLog()
        return trap.exitCode(after: code)
    }
}
