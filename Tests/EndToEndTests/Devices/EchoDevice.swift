import TetherSimulator

/// A device that sends back every byte it receives, at once and unchanged (a loopback
/// plug).
final class EchoDevice: SimulatedDevice {
    func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] { [.send(bytes)] }
}
