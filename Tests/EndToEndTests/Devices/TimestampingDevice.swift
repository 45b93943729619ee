import Foundation
import Synchronization
import TetherSimulator

/// A device that notes when each read of bytes reached it (wall-clock time, comparable
/// with the times of tether's records) and otherwise behaves as the device it wraps.
final class TimestampingDevice: SimulatedDevice {
    /// One read of bytes, as the simulator's serving thread got it.
    struct Arrival: Sendable {
        let time: Date
        let bytes: [UInt8]
    }

    private let device: any SimulatedDevice
    private let log = Mutex<[Arrival]>([])

    init(_ device: any SimulatedDevice) { self.device = device }

    /// Every read so far, in order.
    var arrivals: [Arrival] { log.withLock { $0 } }
    /// Every byte received so far.
    var received: [UInt8] { arrivals.flatMap(\.bytes) }

    func clientDidConnect(at now: ContinuousClock.Instant) -> [DeviceOutput] { device.clientDidConnect(at: now) }

    func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] {
        log.withLock { $0.append(Arrival(time: Date(), bytes: bytes)) }
        return device.receive(bytes, at: now)
    }

    var nextWakeUp: ContinuousClock.Instant? { device.nextWakeUp }
    func wakeUp(at now: ContinuousClock.Instant) -> [DeviceOutput] { device.wakeUp(at: now) }
    func clientDidDisconnect(at now: ContinuousClock.Instant) { device.clientDidDisconnect(at: now) }
}
