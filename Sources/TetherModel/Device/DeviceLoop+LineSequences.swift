import Glibc
import Synchronization
import TetherPoll
import TetherSerial

extension DeviceLoop {
    /// Applies the steps of the line sequences that are due (``Device/run(_:)``), each
    /// outside the lock, and resumes the caller of each sequence that is over. A step
    /// the port refuses ends its sequence with that error; a port without line control
    /// (raw TCP) refuses every one.
    func runLineSteps(with transport: any SerialTransport) {
        while let work = state.withLock({ $0.lineSchedule.takeDue(now: .now) }) {
            switch work {
            case .finished(let waiter):
                waiter.resume(returning: .success(()))
            case .apply(let step, _, _):
                do throws(SerialError) {
                    try apply(step, to: transport)
                    update { state in
                        state.lineSchedule.applied(step, now: .now)
                        if step.changesLines { state.publish(.lineControl(.lines(step))) }
                    }
                } catch {
                    state.withLock { $0.lineSchedule.failRunning() }?.resume(returning: .failure(error))
                }
            }
        }
    }

    /// Sets the lines and the break `step` gives, DTR and RTS in one call.
    ///
    /// - Throws: what the port throws; ``SerialError/io(path:function:errno:message:)``
    ///   for a port without modem lines (raw TCP).
    private func apply(_ step: LineStep, to transport: any SerialTransport) throws(SerialError) {
        guard let line = transport as? any LineControl else {
            throw .io(
                path: port, function: "line control", errno: 0,
                message: "this port has no modem lines or break (a raw TCP port: use rfc2217:// for them)")
        }
        if step.dtr != nil || step.rts != nil { try line.setLines(dtr: step.dtr, rts: step.rts) }
        if let isBreak = step.isBreak { try line.setBreak(isBreak) }
    }

    /// Ends every line sequence asked for with `error` (the port went away, the device
    /// ended).
    func failLineSequences(_ error: SerialError) {
        for waiter in state.withLock({ $0.lineSchedule.takeAll() }) { waiter.resume(returning: .failure(error)) }
    }

    /// Runs the opening sequence (a reset) right after an open, requests still held:
    /// each step applied, then the port read until its hold is over (what the device
    /// prints meanwhile is taken in as at the catch-up). A step the port refuses is
    /// published as an `error` and ends the sequence; the device carries on.
    ///
    /// - Returns: `nil`, or how the connection ended meanwhile.
    func runOpening(
        _ sequence: LineSequence, on transport: any SerialTransport, _ buffer: UnsafeMutableRawBufferPointer
    ) -> Ending? {
        update { $0.publish(.lineControl(.sequence(name: sequence.name, steps: sequence.steps))) }
        for step in sequence.steps {
            do throws(SerialError) {
                try apply(step, to: transport)
            } catch {
                update { $0.publish(.error("reset \(sequence.name) stopped: \(error)")) }
                return nil
            }
            if step.changesLines { update { $0.publish(.lineControl(.lines(step))) } }
            let until = ContinuousClock.now + step.hold
            while ContinuousClock.now < until {
                if state.withLock({ $0.isClosing }) { return .closing }
                var entry = pollfd(fd: transport.descriptor, events: Int16(POLLIN), revents: 0)
                let count = poll(&entry, 1, (until - .now).pollTimeout)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { continue }
                if let ending = receive(from: transport, into: buffer, discarding: discardsWaitingInput) {
                    return ending
                }
            }
        }
        return nil
    }
}
