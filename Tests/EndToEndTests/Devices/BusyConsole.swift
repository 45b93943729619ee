import Synchronization
import TetherSimulator

/// A bootloader console that is deaf while busy, as U-Boot is while `sleep` (or
/// anything else polling `ctrlc()`) runs: it reads what is typed meanwhile and discards
/// it. It echoes each line (ended by CR), answers `sleep N` with its prompt `=> ` N
/// seconds later, `echo TEXT` with `TEXT` and the prompt, anything else with the prompt.
final class BusyConsole: SimulatedDevice {
    private struct State {
        var line: [UInt8] = []
        var busyUntil: ContinuousClock.Instant?
        var discarded: [UInt8] = []
    }

    private let state = Mutex(State())

    /// The bytes it read and discarded while busy.
    var discarded: [UInt8] { state.withLock { $0.discarded } }

    func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] {
        state.withLock { state in
            if let busyUntil = state.busyUntil, now < busyUntil {
                state.discarded += bytes
                return []
            }
            state.busyUntil = nil
            var outputs: [DeviceOutput] = []
            for byte in bytes where byte != UInt8(ascii: "\n") {
                guard byte == UInt8(ascii: "\r") else {
                    state.line.append(byte)
                    continue
                }
                let line = String(decoding: state.line, as: UTF8.self)
                state.line.removeAll()
                outputs.append(.send(line + "\r\n"))
                if line.hasPrefix("sleep "), let seconds = Int(line.dropFirst(6)) {
                    state.busyUntil = now + .seconds(seconds)
                    outputs.append(.send("=> ", after: .seconds(seconds)))
                    return outputs
                }
                if line.hasPrefix("echo ") { outputs.append(.send(line.dropFirst(5) + "\r\n")) }
                outputs.append(.send("=> "))
            }
            return outputs
        }
    }
}
