import Synchronization
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
                    guard let line = transport as? any LineControl else {
                        throw .io(path: port, function: "line control", errno: 0, message: "not supported by this port")
                    }
                    if step.dtr != nil || step.rts != nil { try line.setLines(dtr: step.dtr, rts: step.rts) }
                    if let isBreak = step.isBreak { try line.setBreak(isBreak) }
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

    /// Ends every line sequence asked for with `error` (the port went away, the device
    /// ended).
    func failLineSequences(_ error: SerialError) {
        for waiter in state.withLock({ $0.lineSchedule.takeAll() }) { waiter.resume(returning: .failure(error)) }
    }
}
