import TetherModel

/// A device's identity, parsed leniently from an IEEE 488.2 `*IDN?` reply
/// (`manufacturer,model,serial,firmware`); fields a device leaves out are `nil`.
public struct DeviceIdentity: Sendable, Equatable {
    /// Where an identity came from.
    public enum Source: String, Sendable, Equatable {
        /// The device's own reply to `*IDN?`.
        case reply
        /// A device description given when the session started (a simulator profile's
        /// `identity`, see ``DeviceFacts``).
        case description
    }

    /// The reply as received.
    public var raw: String
    /// First field.
    public var manufacturer: String?
    /// Second field.
    public var model: String?
    /// Third field (`0` when the device has none).
    public var serialNumber: String?
    /// Fourth field.
    public var firmware: String?
    /// Where it came from.
    public var source: Source

    /// Parses `raw`; a reply without commas becomes the manufacturer alone.
    public init(parsing raw: String, source: Source = .reply) {
        self.raw = raw
        self.source = source
        let fields = raw.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingWhitespace()
        }
        func field(_ index: Int) -> String? {
            index < fields.count && !fields[index].isEmpty ? fields[index] : nil
        }
        manufacturer = field(0)
        model = field(1)
        serialNumber = field(2)
        firmware = field(3)
    }
}
