/// A file transfer as a pure state machine, like the Model's `Session`: a value with no
/// I/O and no clock that takes the bytes read and the time, and returns what to do
/// (``TransferAction``). Whoever drives it (the port loop, a test, the simulator) writes
/// the bytes it asks for, feeds it every byte read, calls ``expire(now:)`` once
/// ``nextDeadline`` has passed, and stops at ``TransferAction/finished(_:)``.
///
/// ``TransferSender`` and ``TransferReceiver`` are the two sides.
public protocol TransferMachine: Sendable {
    /// Begins: a receiver asks for the first block, a sender starts waiting for that.
    mutating func start(now: ContinuousClock.Instant) -> [TransferAction]
    /// Takes bytes read from the peer.
    mutating func receive(_ bytes: [UInt8], now: ContinuousClock.Instant) -> [TransferAction]
    /// When ``expire(now:)`` must next be called; `nil` once finished.
    var nextDeadline: ContinuousClock.Instant? { get }
    /// Handles the deadline that has passed (a retry, a timeout).
    mutating func expire(now: ContinuousClock.Instant) -> [TransferAction]
    /// Ends the transfer from this side: writes the cancel sequence (CAN CAN …) and
    /// finishes with ``TransferFailure/cancelled``; does nothing once finished.
    mutating func cancel(now: ContinuousClock.Instant) -> [TransferAction]
    /// Whether ``TransferAction/finished(_:)`` was returned.
    var isFinished: Bool { get }
}

/// What the driver of a ``TransferMachine`` must do, in order.
public enum TransferAction: Sendable, Equatable {
    /// Write these bytes to the peer, now, as they are.
    case write([UInt8])
    /// Report this (a file began, progress, a file received).
    case report(TransferEvent)
    /// The transfer is over; nothing more is to be written or fed.
    case finished(TransferOutcome)
}

/// What a transfer reports while it runs.
public enum TransferEvent: Sendable, Equatable {
    /// A file begins: its name (`nil` for XMODEM on the receiving side) and size in
    /// bytes when known.
    case started(name: String?, size: Int?)
    /// More of the current file is acknowledged.
    case progress(TransferProgress)
    /// A file arrived whole (receiving side), before the batch is over.
    case received(TransferFile)
}

/// How far a transfer is.
public struct TransferProgress: Sendable, Equatable {
    /// Bytes of the current file acknowledged (sent) or accepted (received).
    public var bytes: Int
    /// The current file's size in bytes, when known (sending, or YMODEM's block 0).
    public var total: Int?
    /// Blocks sent again, or damaged blocks asked for again, since the transfer began.
    public var retries: Int

    /// Creates a progress report.
    public init(bytes: Int, total: Int?, retries: Int) {
        self.bytes = bytes
        self.total = total
        self.retries = retries
    }
}

/// How a transfer ended.
public enum TransferOutcome: Sendable, Equatable {
    /// Every file went through: those sent, or those received (in order).
    case completed(files: [TransferFile])
    /// The transfer failed; files already received whole were reported as
    /// ``TransferEvent/received(_:)``.
    case failed(TransferFailure)
}

/// Why a transfer failed.
public enum TransferFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Sending: no `C` or NAK came within ``TransferLimits/startTimeout``.
    case receiverNeverStarted(waited: Duration)
    /// Receiving: no block came after ``TransferLimits/requestLimit`` requests.
    case senderNeverStarted(requests: Int)
    /// The peer sent CAN CAN.
    case cancelledByPeer
    /// A block (or EOT, or a block 0) was sent or asked for again
    /// ``TransferLimits/retryLimit`` times without success.
    case tooManyRetries(block: Int)
    /// The peer broke the protocol: a block out of sequence, a bad block 0, a file
    /// shorter than its block 0 said.
    case protocolViolation(String)
    /// This side cancelled (``TransferMachine/cancel(now:)``: Ctrl-C).
    case cancelled
    /// The device went away or was closed during the transfer (set by the driver).
    case disconnected(reason: String)

    /// A one-line reason, as the final line and the JSON `failed` record give it.
    public var description: String {
        switch self {
        case .receiverNeverStarted(let waited):
            "the receiver never started (no C or NAK in \(waited.components.seconds) s)"
        case .senderNeverStarted(let requests): "the sender never started (no block after \(requests) requests)"
        case .cancelledByPeer: "cancelled by the peer (CAN CAN)"
        case .tooManyRetries(let block): "too many retries (block \(block))"
        case .protocolViolation(let what): "protocol error: \(what)"
        case .cancelled: "cancelled"
        case .disconnected(let reason): "disconnected: \(reason)"
        }
    }
}
