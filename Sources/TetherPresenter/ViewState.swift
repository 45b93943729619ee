import FoundationEssentials

/// Everything a view may show about one device connection, as plain values.
public struct ViewState: Sendable, Equatable {
    /// The connection's state; `since` is when it entered that state (a view shows
    /// the downtime so far as now − `since`).
    public enum Connection: Sendable, Equatable {
        /// Not yet open.
        case connecting
        /// Open (or open again after a reconnect) since `since`.
        case connected(since: Date)
        /// The device went away at `since`; `reason` says how. The connection is over.
        case disconnected(reason: String, since: Date)
        /// The device went away at `since` (`reason`) and tether waits to reopen it.
        case reconnecting(reason: String, since: Date)
    }

    /// The port as the user named it.
    public var port: String
    /// The name a script run gave the device (`--port NAME=PATH`), e.g. `supply`;
    /// `nil` outside runs and for a run's unnamed device.
    public var device: String?
    /// The connection's state.
    public var connection: Connection = .connecting
    /// The serial settings in force, like `115200 8N1`, once the port has opened;
    /// kept while the device is away (a reconnect reopens with the same settings).
    public var settings: String?
    /// Who the device is: from its `*IDN?` reply (IEEE 488.2) once seen, else from the
    /// device description (a simulator profile), else `nil`.
    public var identity: DeviceIdentity?
    /// Every named reading seen in notifications, in the order each name was first
    /// seen, e.g. `temp` and `hum` from `!READING temp=22.87 hum=41.3` — the first
    /// ``maximumReadingNames`` names; a value of a name past them is counted in
    /// ``Counts/untrackedReadings``.
    public var readings: [ReadingSeries] = []
    /// The most recent alarm notifications, error replies and warnings, oldest first,
    /// at most ``maximumAlerts``.
    public var alerts: [Alert] = []
    /// The most recent exchanges, oldest first, at most ``maximumRecentExchanges``.
    public var recentExchanges: [Exchange] = []
    /// Counters since the connection opened.
    public var counts = Counts()
    /// The text without a line end reported last (``ViewEvent/pendingText(_:)``),
    /// until another event of the device's traffic ends it; `nil` when there is none.
    public var pendingText: ViewLine?

    /// How many exchanges ``recentExchanges`` keeps.
    public static let maximumRecentExchanges = 20
    /// How many alerts ``alerts`` keeps.
    public static let maximumAlerts = 10
    /// How many reading names ``readings`` tracks (64): a device that puts a new name
    /// in every line (a counter as a key) cannot grow the state, nor each `state`
    /// record, without bound.
    public static let maximumReadingNames = 64

    /// The reading named `name`, if one was seen.
    func reading(named name: String) -> ReadingSeries? {
        readings.first { $0.latest.name == name }
    }

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
        /// Values of readings not tracked in ``ViewState/readings`` because their name
        /// came after ``ViewState/maximumReadingNames`` others (their notifications are
        /// shown as always).
        public var untrackedReadings = 0
        /// Received lines the dialect found damaged (``ViewEvent/invalidLine(_:reason:)``:
        /// `nmea`'s wrong or missing checksums).
        public var invalidLines = 0
        /// Bytes received in a modem's data mode (``ViewEvent/data(_:)``).
        public var dataBytes = 0
        /// Breaks received (``ViewEvent/lineEvent(_:)``).
        public var breaks = 0
        /// Characters received with a framing or parity error, and overruns.
        public var lineErrors = 0
        /// Changes of the modem status inputs (CTS, DSR, DCD, RI) reported.
        public var modemLineChanges = 0
        /// Notifications by log level (``ViewLine/level``); lines without one are not in it.
        public var levels: [LogLevel: Int] = [:]
    }
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
    /// Whether the reply may not be this command's (a stray line may have been taken
    /// for it; see docs/DIALECTS.md, "Replies in doubt").
    public var isInDoubt = false
    /// The command's exact bytes when ``command`` is not exactly them (they are not
    /// UTF-8, e.g. `\xff`: ``command`` shows U+FFFD); `nil` otherwise.
    public var commandBytes: [UInt8]? = nil

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
