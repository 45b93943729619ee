@testable import TetherSimulator

/// A built-in profile's device with a client connected at ``start``, driven by direct
/// calls at chosen instants.
struct ProfileHarness {
    let start = ContinuousClock.now
    let device: ProfileDevice

    init(_ name: String) throws {
        device = try SimulatorProfiles.device(named: name)
        _ = device.clientDidConnect(at: start)
    }

    /// Sends `text` at `start + offset`; what the device writes, as text.
    func exchange(_ text: String, at offset: Duration = .zero) -> String {
        Self.text(device.receive(Array(text.utf8), at: start + offset))
    }

    /// The notifications due at `start + offset`, as text.
    func wakeUp(at offset: Duration) -> String {
        Self.text(device.wakeUp(at: start + offset))
    }

    private static func text(_ outputs: [DeviceOutput]) -> String {
        outputs.map { output in
            guard case .send(let bytes) = output.action else { return "<hang-up>" }
            return String(decoding: bytes, as: UTF8.self)
        }.joined()
    }
}
