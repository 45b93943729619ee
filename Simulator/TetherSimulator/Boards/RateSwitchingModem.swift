import Synchronization

/// A modem whose serial rate follows `AT+IPR=<rate>` (V.25ter's fixed DTE rate), in
/// front of the device it wraps (the `at-modem` profile): it answers `OK` at the old
/// rate and from then on understands only a client at the new one — what it receives
/// at another rate is noise to it and gets no answer, as on a real UART.
///
/// The client's rate is the pty slave's termios (``LineSignal/baudRate(_:)``), so a
/// client that changes its port's rate after the `OK` (`dev.set_baud`) goes on talking
/// in the same session; one that does not gets no answer.
public final class RateSwitchingModem: SimulatedDevice {
    private struct State {
        var rate: Int
        var clientRate: Int?
        var pending: [UInt8] = []
    }

    private let device: any SimulatedDevice
    private let state: Mutex<State>

    /// Wraps `device`, which starts at `rate` (bit/s).
    public init(_ device: any SimulatedDevice, rate: Int = 115_200) {
        self.device = device
        state = Mutex(State(rate: rate))
    }

    /// The modem's rate now (bit/s).
    public var rate: Int { state.withLock { $0.rate } }

    public func clientDidConnect(at now: ContinuousClock.Instant) -> [DeviceOutput] { device.clientDidConnect(at: now) }

    public func lineSignal(_ signal: LineSignal, at now: ContinuousClock.Instant) -> [DeviceOutput] {
        if case .baudRate(let rate) = signal { state.withLock { $0.clientRate = rate } }
        return device.lineSignal(signal, at: now)
    }

    public func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] {
        let switched = state.withLock { state -> [UInt8]?? in
            guard state.clientRate == nil || state.clientRate == state.rate else { return .some(nil) }
            state.pending += bytes
            guard let end = state.pending.firstIndex(of: UInt8(ascii: "\r")) else { return .none }
            let line = String(decoding: state.pending[..<end], as: UTF8.self)
            state.pending.removeAll()
            guard line.uppercased().hasPrefix("AT+IPR="), let rate = Int(line.dropFirst(7)), rate > 0 else {
                return .none
            }
            state.rate = rate
            return .some(Array(line.utf8) + Array("\r\r\nOK\r\n".utf8))
        }
        switch switched {
        case .some(nil): return []  // noise at another rate
        case .some(let answer?): return [.send(answer)]
        case .none: return device.receive(bytes, at: now)
        }
    }

    public var nextWakeUp: ContinuousClock.Instant? { device.nextWakeUp }
    public func wakeUp(at now: ContinuousClock.Instant) -> [DeviceOutput] { device.wakeUp(at: now) }
    public func clientDidDisconnect(at now: ContinuousClock.Instant) { device.clientDidDisconnect(at: now) }
}
