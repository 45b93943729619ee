/// The times and counts that bound a transfer, from Forsberg's "XMODEM/YMODEM PROTOCOL
/// REFERENCE" (docs/TRANSFERS.md, "Limits").
public struct TransferLimits: Sendable, Equatable {
    /// How long a sender waits for the receiver's first `C` or NAK: 60 s (the receiver
    /// asks every 10 s, 10 times, with room for a late start).
    public static let defaultStartTimeout = Duration.seconds(60)
    /// How often a receiver asks for the first block (`C` or NAK), and how long a
    /// receiver waits for the next block: 10 s.
    public static let defaultRequestInterval = Duration.seconds(10)
    /// How many times a receiver asks before giving up: 10.
    public static let defaultRequestLimit = 10
    /// How long a sender waits for ACK or NAK of a block before sending it again: 10 s.
    public static let defaultAcknowledgementTimeout = Duration.seconds(10)
    /// How many times one block (or EOT) is sent again before the transfer fails: 10.
    public static let defaultRetryLimit = 10
    /// Inside a block, the longest gap between two bytes before the receiver gives the
    /// block up (and, after a damaged block, the quiet it waits for before its NAK): 1 s.
    public static let defaultByteTimeout = Duration.seconds(1)

    /// See ``defaultStartTimeout``.
    public var startTimeout: Duration
    /// See ``defaultRequestInterval``.
    public var requestInterval: Duration
    /// See ``defaultRequestLimit``.
    public var requestLimit: Int
    /// See ``defaultAcknowledgementTimeout``.
    public var acknowledgementTimeout: Duration
    /// See ``defaultRetryLimit``.
    public var retryLimit: Int
    /// See ``defaultByteTimeout``.
    public var byteTimeout: Duration

    /// The protocol reference's limits, with a different sender start timeout if given.
    public init(
        startTimeout: Duration = defaultStartTimeout, requestInterval: Duration = defaultRequestInterval,
        requestLimit: Int = defaultRequestLimit, acknowledgementTimeout: Duration = defaultAcknowledgementTimeout,
        retryLimit: Int = defaultRetryLimit, byteTimeout: Duration = defaultByteTimeout
    ) {
        self.startTimeout = startTimeout
        self.requestInterval = requestInterval
        self.requestLimit = requestLimit
        self.acknowledgementTimeout = acknowledgementTimeout
        self.retryLimit = retryLimit
        self.byteTimeout = byteTimeout
    }
}
