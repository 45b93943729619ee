import Synchronization
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
    /// - Throws: `SerialError/disconnected(path:)` while the device is away or after
    ///   it ended, or when it goes away during the sequence;
    ///   `SerialError/io(path:function:errno:message:)` when the port has no line
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

    /// Runs `body` with the port's modem lines, break and baud rate (`LineControl`),
    /// on the port loop between reads and writes, and returns its result.
    ///
    /// ```swift
    /// try await device.withLineControl { try $0.sendBreak(milliseconds: 250) }
    /// let lines = try await device.withLineControl { try $0.modemLines() }
    /// ```
    ///
    /// - Throws: what `body` throws; `SerialError/disconnected(path:)` while the
    ///   device is away or after it ended; `SerialError/io(path:function:errno:message:)`
    ///   when the port has no line control (a raw TCP connection).
    public func withLineControl<Result: Sendable>(
        _ body: @escaping @Sendable (any LineControl) throws(SerialError) -> Result
    ) async throws(SerialError) -> Result {
        let port = self.port
        let outcome = await withCheckedContinuation {
            (done: CheckedContinuation<Swift.Result<Result, SerialError>, Never>) in
            let control: @Sendable ((any SerialTransport)?) -> Void = { transport in
                guard let transport else { return done.resume(returning: .failure(.disconnected(path: port))) }
                guard let line = transport as? any LineControl else {
                    return done.resume(
                        returning: .failure(
                            .io(path: port, function: "line control", errno: 0, message: "not supported by this port")))
                }
                done.resume(returning: Swift.Result { () throws(SerialError) in try body(line) })
            }
            let place = loop.state.withLock { state -> ControlPlace in
                switch state.phase {
                case .ended: return .here(nil)
                case .created: return .here(state.transport)  // no loop yet: nothing reads or writes
                case .catchingUp, .connected, .away:
                    state.controls.append(control)
                    return .loop
                }
            }
            switch place {
            case .loop: loop.wake()
            case .here(let transport): control(transport)
            }
        }
        return try outcome.get()
    }

    /// Where line-control work runs: on the port loop, or at once with this transport
    /// (no loop yet, or none any more).
    private enum ControlPlace {
        case loop
        case here((any SerialTransport)?)
    }

    /// Changes the baud rate of the open port, and of the port reopened after a
    /// reconnect, and publishes the settings read back from the port as at the open:
    /// ``LineControlEvent/settingsChanged(settings:)``, then a `settingMismatch` for a
    /// rate the port does not have.
    ///
    /// - Parameter baudRate: in bit/s, any positive rate.
    /// - Returns: what the port reports having after the change (read back from the
    ///   driver, or the RFC 2217 server's answer; `SerialTransport/settingsReport`).
    /// - Throws: as ``withLineControl(_:)``.
    @discardableResult
    public func setBaudRate(_ baudRate: Int) async throws(SerialError) -> SettingsReport {
        try await withLineControl { (line) throws(SerialError) in try line.setBaudRate(baudRate) }
        return loop.update { state in
            state.baudRate = baudRate
            let report = state.transport?.settingsReport ?? SettingsReport()
            state.publish(
                DeviceEvent.opened(report, settings: "\(baudRate)") { .lineControl(.settingsChanged(settings: $0)) })
            return report
        }
    }

    /// The serial settings the open port reports having (`921600 8N1`, read back from
    /// it: `SerialTransport/settingsReport`); `nil` while it is away or when it does
    /// not say (raw TCP).
    public var settings: String? {
        loop.state.withLock { $0.transport?.settingsReport.actual?.summary }
    }
}
