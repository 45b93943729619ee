/// The default simulated device: a small environmental chamber controller that speaks a
/// line protocol (documented in Simulator/README.md).
///
/// Answers `*IDN?`, `TEMP?`, `HUM?`, `SETP`, `RATE`, `ALARM` and `ALARM:TEST`; sends
/// `!READING` every `RATE` ms while a client is connected and `!ALARM` when a reading
/// reaches the alarm limit. Host lines end in CR, LF or CR LF; every output line ends in
/// CR LF. The temperature drifts towards the setpoint with noise drawn from a
/// ``SeededRandomGenerator``: the same seed and the same timing give the same values.
/// Settings persist across clients, as on a real device.
public final class EnvironmentalController: SimulatedDevice {
    /// The seed used when none is given ("TETHER" in ASCII).
    public static let defaultSeed: UInt64 = 0x5445_5448_4552

    private struct Session {
        var environment: EnvironmentState
        var assembler = LineAssembler()
    }

    private let session: Locked<Session>

    /// Creates a controller at its power-on settings (setpoint 22.0 °C, RATE 1000 ms,
    /// alarm limit 30.0 °C, temperature 21.5 °C).
    ///
    /// - Parameter seed: Fixes the sensor noise; equal seeds give equal sequences.
    public init(seed: UInt64 = EnvironmentalController.defaultSeed) {
        session = Locked(Session(environment: EnvironmentState(seed: seed)))
    }

    public func clientDidConnect(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        session.withLock {
            $0.assembler.reset()
            $0.environment.start(at: now)
        }
        return []
    }

    public func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] {
        let lines = session.withLock { session in
            session.assembler.append(bytes).flatMap { item in
                switch item {
                case .line(let line): session.environment.execute(line, at: now)
                case .overflow: [#"ERR -363,"Input buffer overrun""#]
                }
            }
        }
        return Self.output(lines)
    }

    public var nextWakeUp: ContinuousClock.Instant? {
        session.withLock { $0.environment.nextReading }
    }

    public func wakeUp(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        Self.output(session.withLock { $0.environment.takeReading(at: now) })
    }

    public func clientDidDisconnect(at now: ContinuousClock.Instant) {
        session.withLock {
            $0.assembler.reset()
            $0.environment.pause()
        }
    }

    /// The lines, each ending in CR LF, as one write; none when there are no lines.
    private static func output(_ lines: [String]) -> [DeviceOutput] {
        lines.isEmpty ? [] : [.send(lines.map { $0 + "\r\n" }.joined())]
    }
}
