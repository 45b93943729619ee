import Foundation
import Synchronization
import TetherSimulator

/// A device that notes when each read of bytes and each line signal (modem lines, break,
/// baud rate) reached it (wall-clock time, comparable with the times of tether's
/// records) and otherwise behaves as the device it wraps.
final class TimestampingDevice: SimulatedDevice {
    /// One read of bytes, as the simulator's serving thread got it.
    struct Arrival: Sendable {
        let time: Date
        let bytes: [UInt8]
    }

    /// One line signal, as the simulator's serving thread got it.
    struct Signal: Sendable {
        let time: Date
        let signal: LineSignal
    }

    private let device: any SimulatedDevice
    private let log = Mutex<[Arrival]>([])
    private let signalLog = Mutex<[Signal]>([])

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

    /// Every line signal so far, in order.
    var signals: [Signal] { signalLog.withLock { $0 } }

    func lineSignal(_ signal: LineSignal, at now: ContinuousClock.Instant) -> [DeviceOutput] {
        signalLog.withLock { $0.append(Signal(time: Date(), signal: signal)) }
        return device.lineSignal(signal, at: now)
    }

    var nextWakeUp: ContinuousClock.Instant? { device.nextWakeUp }
    func wakeUp(at now: ContinuousClock.Instant) -> [DeviceOutput] { device.wakeUp(at: now) }
    func clientDidDisconnect(at now: ContinuousClock.Instant) { device.clientDidDisconnect(at: now) }
}
