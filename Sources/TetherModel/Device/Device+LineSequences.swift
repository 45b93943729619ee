import TetherSerial

extension Device {
    /// Runs a timed sequence of line states — DTR, RTS, break, each step held for its
    /// time — on the port loop, and returns when its last hold is over.
    ///
    /// The holds are deadlines of the loop's `poll`: no thread sleeps, the device is
    /// read throughout (a boot banner during a reset is not lost) and requests still go
    /// out; a caller that wants the lines changed after what it queued waits for that
    /// first (a Lua script's `dev.reset` does). Sequences asked for together run one
    /// after another. Published as ``LineControlEvent/sequence(name:steps:)``, then
    /// ``LineControlEvent/lines(_:)`` for each step when it is applied.
    ///
    /// ```swift
    /// try await device.run(LineSequence.named("esptool-classic")!)
    /// ```
    ///
    /// - Throws: ``SerialError/disconnected(path:)`` while the device is away or after
    ///   it ended, or when it goes away during the sequence;
    ///   ``SerialError/io(path:function:errno:message:)`` when the port has no line
    ///   control (a raw TCP connection), an RFC 2217 server refused serial port control,
    ///   or the driver refuses a line (RTS under RTS/CTS flow control).
    public func run(_ sequence: LineSequence) async throws(SerialError) {
        let loop = self.loop
        let port = self.port
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<Void, SerialError>, Never>) in
            let isAccepted = loop.update { state -> Bool in
                switch state.phase {
                case .ended, .away: return false
                case .created, .catchingUp, .connected:
                    state.publish(.lineControl(.sequence(name: sequence.name, steps: sequence.steps)))
                    state.lineSchedule.append(sequence, waiter: done)
                    return true
                }
            }
            if !isAccepted { done.resume(returning: .failure(.disconnected(path: port))) }
        }
        try result.get()
    }

    /// Sets DTR and RTS at once (one `TIOCMSET` on a local port); a `nil` line is left
    /// as it is. A one-step ``run(_:)``.
    ///
    /// - Throws: as ``run(_:)``.
    public func setLines(dtr: Bool?, rts: Bool?) async throws(SerialError) {
        try await run(LineSequence(name: "set lines", steps: [LineStep(dtr: dtr, rts: rts)]))
    }

    /// Sends a break of `milliseconds` ms, timed by the port loop (``run(_:)``).
    ///
    /// - Throws: as ``run(_:)``.
    public func sendBreak(milliseconds: Int) async throws(SerialError) {
        try await run(.breakSignal(milliseconds: milliseconds))
    }
}
