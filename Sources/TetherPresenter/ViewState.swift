import FoundationEssentials

/// Everything a view may show about one device connection, as plain values.
public struct ViewState: Sendable, Equatable {
    /// The connection's state.
    public enum Connection: Sendable, Equatable {
        /// Not yet open.
        case connecting
        /// Open; `settings` reads like `115200 8N1`.
        case connected(settings: String)
        /// The device went away; `reason` says how.
        case disconnected(reason: String)
        /// The device went away (`reason`) and tether waits to reopen it.
        case reconnecting(reason: String)
    }

    /// The port as the user named it.
    public var port: String
    /// The name a script run gave the device (`--port NAME=PATH`), e.g. `supply`;
    /// `nil` outside runs and for a run's unnamed device.
    public var device: String?
    /// The connection's state.
    public var connection: Connection = .connecting
    /// The identity the device reported to `*IDN?` (IEEE 488.2), once seen.
    public var identity: DeviceIdentity?
    /// The latest value of every named reading seen in notifications, by name, e.g.
    /// `temp` → `22.87` from `!READING temp=22.87 hum=41.3`.
    public var readings: [String: Reading] = [:]
    /// The most recent exchanges, oldest first, at most ``maximumRecentExchanges``.
    public var recentExchanges: [Exchange] = []
    /// Counters since the connection opened.
    public var counts = Counts()

    /// How many exchanges ``recentExchanges`` keeps.
    public static let maximumRecentExchanges = 20

    /// Creates the state for a port that is being opened; `device` is a run's name
    /// for it.
    public init(port: String, device: String? = nil) {
        self.port = port
        self.device = device
    }

    /// Event counters.
    public struct Counts: Sendable, Equatable {
        /// Replies received (error replies included).
        public var replies = 0
        /// Error replies received.
        public var errorReplies = 0
        /// Requests that timed out.
        public var timeouts = 0
        /// Requests that failed otherwise (disconnected, not sent).
        public var failures = 0
        /// Notifications received.
        public var notifications = 0
        /// Replies that arrived after their request timed out.
        public var lateReplies = 0
        /// Events this view missed because it fell behind.
        public var missed = 0
        /// Times the device came back after a disconnect.
        public var reconnects = 0
    }
}

/// A device's identity, parsed leniently from an IEEE 488.2 `*IDN?` reply
/// (`manufacturer,model,serial,firmware`); fields a device leaves out are `nil`.
public struct DeviceIdentity: Sendable, Equatable {
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

    /// Parses `raw`; a reply without commas becomes the manufacturer alone.
    public init(parsing raw: String) {
        self.raw = raw
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

/// One named value taken from a notification's `name=value` fields.
public struct Reading: Sendable, Equatable {
    /// The field name, e.g. `temp`.
    public var name: String
    /// The value as sent, e.g. `22.87`.
    public var value: String
    /// The value as a number, when it is one.
    public var number: Double?
    /// When it was received.
    public var time: Date
}

/// A finished request as views show it.
public struct Exchange: Sendable, Equatable {
    /// The command as sent, without terminator.
    public var command: String
    /// How it ended.
    public var outcome: Outcome
    /// When it ended.
    public var time: Date
    /// What an error reply means, when the dialect knows (e.g. `SIM not inserted` for
    /// `+CME ERROR: 10`).
    public var errorDescription: String? = nil
    /// The identity parsed from a successful `*IDN?` reply.
    public var identity: DeviceIdentity? = nil

    /// How a request ended.
    public enum Outcome: Sendable, Equatable {
        /// A reply; `roundTrip` from sending to the last byte.
        case reply(lines: [ViewLine], finalResult: ViewLine?, isError: Bool, roundTrip: Duration)
        /// No reply within `timeout`.
        case timedOut(timeout: Duration)
        /// The request failed for another reason (disconnected, not sent).
        case failed(reason: String)
    }
}
