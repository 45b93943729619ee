import Synchronization
import TetherSimulator

/// A modem's escape to command mode (Hayes `+++`): it
/// answers `OK` only to exactly three `+` with at least ``guardTime`` of silence before
/// the first and after the last. Any other byte, or a byte inside the silence after,
/// gets nothing.
final class GuardTimeModem: SimulatedDevice {
    /// The silence required on either side: 900 ms (a real modem's S12 is 1 s; the
    /// margin lets a script sleep 1000 ms on a busy machine).
    static let guardTime: Duration = .milliseconds(900)

    private struct State {
        var lastByte: ContinuousClock.Instant?
        var pluses = 0
        var quietBefore = false
        var answerAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    func clientDidConnect(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        state.withLock { $0 = State(lastByte: now) }
        return []
    }

    func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] {
        state.withLock { state in
            for byte in bytes {
                if byte == UInt8(ascii: "+") {
                    if state.pluses == 0 {
                        state.quietBefore = state.lastByte.map { now - $0 >= Self.guardTime } ?? true
                    }
                    state.pluses += 1
                } else {
                    state.pluses = 0
                }
                state.lastByte = now
            }
            state.answerAt = state.pluses == 3 && state.quietBefore ? now + Self.guardTime : nil
        }
        return []
    }

    var nextWakeUp: ContinuousClock.Instant? { state.withLock { $0.answerAt } }

    func wakeUp(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        state.withLock { state in
            state.answerAt = nil
            state.pluses = 0
        }
        return [.send("\r\nOK\r\n")]
    }
}
