import TetherModel
import TetherPresenter

extension Connection {
    /// Ends a session with an exit code; yield at most once that matters (the first
    /// value wins).
    package typealias Stop = AsyncStream<ExitCode>.Continuation

    /// The one owner of a device command's life (`query`, `monitor`, `connect`), as
    /// pyserial's `ReaderThread` owns start and stop: arms the signal trap, renders the
    /// device's events on the view, starts the device, then runs `work` until the first
    /// of: `work` or `observe` calling `stop`, SIGINT/SIGTERM/SIGHUP/SIGQUIT (exit
    /// 128 + n), or the view ending with the device (`whenViewEnds`; by default exit 74).
    /// Then stops the work, closes the device (a signal's reason given to what was
    /// pending: `interrupted`), waits for the view to render everything, checks the
    /// `--log` file and gives the exit code: a signal's after a success.
    ///
    /// - Parameters:
    ///   - showsPendingText, includesBytes, onDeviceLoop: how the view is fed
    ///     (``startPresenting(showsPendingText:includesBytes:onDeviceLoop:observe:until:)``).
    ///   - observe: sees each record after it is rendered.
    ///   - isDone: `true` when nothing more is to be rendered (the session then stops).
    ///   - whenViewEnds: called when the view ends before the session stopped (the
    ///     device ended for good).
    ///   - work: what the session does once the device has started (send the commands,
    ///     read typed lines, sleep a duration).
    /// - Returns: the exit code of whatever stopped the session.
    /// - Throws: ``CommandFailure`` (74) when the `--log` file could not be written.
    package func runUntilStopped(
        showsPendingText: Bool = true, includesBytes: Bool = false, onDeviceLoop: Bool = false,
        observe: @escaping @Sendable (ViewRecord, ViewState, Stop) -> Void = { _, _, _ in },
        until isDone: @escaping @Sendable (ViewState) -> Bool = { _ in false },
        whenViewEnds: @escaping @Sendable (Stop) -> Void = { $0.yield(.ioError) },
        work: @escaping @Sendable (Stop) async -> Void
    ) async throws(CommandFailure) -> ExitCode {
        let (stops, stop) = AsyncStream.makeStream(of: ExitCode.self)
        let (code, signal) = await SignalTrap.during(onSignal: { stop.yield(SignalTrap.exitCode(for: $0)) }) {
            let presenting = startPresenting(
                showsPendingText: showsPendingText, includesBytes: includesBytes, onDeviceLoop: onDeviceLoop,
                observe: { record, state in
                    observe(record, state, stop)
                    if isDone(state) { stop.yield(.success) }
                }, until: isDone)
            let watching = Task {
                _ = await presenting.value
                whenViewEnds(stop)
            }
            await device.start()
            let working = Task { await work(stop) }
            var reasons = stops.makeAsyncIterator()
            let code = await reasons.next() ?? .success
            watching.cancel()
            working.cancel()
            await shutdown(reason: SignalTrap.reason(for: code))
            _ = await presenting.value
            return code
        }
        try checkLog()
        return SignalTrap.exitCode(code, after: signal)
    }

    /// The life of a command that drives the port itself instead of rendering the
    /// device's events (`send`, `receive`, their `--program`): runs `work` with the
    /// signal trap armed, each signal going to `onSignal` (cancel the transfer, pass it
    /// on to the program), then closes the device and checks the `--log` file.
    ///
    /// - Returns: what `work` returned, and the first signal trapped meanwhile.
    /// - Throws: ``CommandFailure`` (74) when the `--log` file could not be written.
    package func drive<Result>(onSignal: @escaping @Sendable (Int32) -> Void, _ work: () async -> Result)
        async throws(CommandFailure) -> (result: Result, signal: Int32?)
    {
        let (result, signal) = await SignalTrap.during(onSignal: onSignal) {
            let result = await work()
            await shutdown()
            return result
        }
        try checkLog()
        return (result, signal)
    }
}
