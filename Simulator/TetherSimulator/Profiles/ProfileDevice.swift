import Synchronization

/// A ``SimulatedDevice`` that behaves as a ``DeviceProfile`` describes.
///
/// Replies to one read are written together, in one write; notifications that fall due
/// together likewise. Settings (and drifting values) persist across clients, as on a real
/// device; notifications run only while a client is connected, starting from its
/// connection. Noise comes from a `SeededRandomGenerator`: equal seeds and equal timing
/// give equal output.
public final class ProfileDevice: SimulatedDevice {
    /// The seed used when none is given ("TETHER" in ASCII).
    public static let defaultSeed: UInt64 = 0x5445_5448_4552

    /// The profile this device runs.
    public let profile: DeviceProfile
    /// The profile's identity as this device gives it (`{serial}` filled in), e.g.
    /// `TETHER,ENV-1,SIM0001,1.0`.
    public let identity: String
    private let machine: Mutex<ProfileMachine>

    /// The serial number of a device when none is given (the first of `tether-sim --count`).
    public static let defaultSerialNumber = serialNumber(ofDevice: 0)

    /// The serial number of device `index` (from 0) of several: `SIM0001`, `SIM0002`…
    public static func serialNumber(ofDevice index: Int) -> String {
        let digits = String(index + 1)
        return "SIM" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Creates a device at the profile's initial values.
    ///
    /// - Parameters:
    ///   - profile: The device's commands, values and notifications.
    ///   - seed: Fixes the noise and drift; equal seeds give equal sequences.
    ///   - serialNumber: The `{serial}` field, and `{serial}` in the profile's identity.
    public init(
        profile: DeviceProfile, seed: UInt64 = ProfileDevice.defaultSeed,
        serialNumber: String = ProfileDevice.defaultSerialNumber
    ) {
        self.profile = profile
        identity = profile.identity(serialNumber: serialNumber)
        machine = Mutex(ProfileMachine(profile: profile, seed: seed, serialNumber: serialNumber))
    }

    public func clientDidConnect(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        machine.withLock { $0.connect(at: now) }
        return []
    }

    public func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] {
        Self.output(machine.withLock { $0.receive(bytes, at: now) })
    }

    public var nextWakeUp: ContinuousClock.Instant? {
        machine.withLock { $0.nextWakeUp }
    }

    public func wakeUp(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        Self.output(machine.withLock { $0.wakeUp(at: now) })
    }

    public func clientDidDisconnect(at now: ContinuousClock.Instant) {
        machine.withLock { $0.disconnect() }
    }

    /// The text as one write; none when empty.
    private static func output(_ text: String) -> [DeviceOutput] {
        output(Array(text.utf8))
    }

    /// The bytes as one write; none when empty.
    private static func output(_ bytes: [UInt8]) -> [DeviceOutput] {
        bytes.isEmpty ? [] : [.send(bytes)]
    }
}
