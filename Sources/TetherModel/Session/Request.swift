/// Identifies one request for the life of a ``Session``.
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    /// Sequence number, from 1, in enqueue order.
    public let value: Int
    public var description: String { "#\(value)" }
}

/// A command waiting to be sent, or in flight.
public struct Request: Sendable, Equatable {
    /// Its identity.
    public let id: RequestID
    /// The command without terminator (e.g. `*IDN?`), its ``bytes`` decoded as UTF-8
    /// (an invalid byte shows as U+FFFD): what views show and dialects decide on.
    public let command: String
    /// The command's exact bytes, without terminator: what is written (0x00–0xFF
    /// unchanged), the dialect's terminator after them unless ``isRaw``.
    public let bytes: [UInt8]
    /// A raw write (``Device/write(_:)``): ``bytes`` go out alone, with no terminator,
    /// and no reply is expected.
    public let isRaw: Bool
    /// How long to wait for the reply once sent; `nil` waits without a deadline
    /// (a hang-up still ends the wait).
    public let timeout: Duration?
    /// When it was queued.
    public let queuedAt: ContinuousClock.Instant
}

/// Why a request produced no reply.
public enum RequestFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No complete reply within the timeout.
    case timedOut(Duration)
    /// The device went away before the reply was complete.
    case disconnected(reason: String)
    /// The caller ended the device (``Device/close(reason:)``: Ctrl-C, a log that
    /// cannot be written) before the reply was complete; `reason` says why
    /// (`interrupted`).
    case stopped(reason: String)
    /// The request was never sent: the device was already gone or closed, or the port
    /// took none of its bytes within its write's deadline (``WriteDeadline``).
    case notSent(reason: String)
    /// The port took only part of the command's bytes within its write's deadline
    /// (``WriteDeadline``: output held by flow control, a receiver slower than the baud
    /// rate, or one that stopped reading): the device never got the whole command.
    case notAllSent(reason: String)
    /// The caller cancelled the request (task cancellation of ``Device/query(_:timeout:)``).
    case cancelled

    public var description: String {
        switch self {
        case .timedOut(let timeout): "no reply within \(timeout.milliseconds) ms"
        case .disconnected(let reason): "disconnected before the reply was complete (\(reason))"
        case .stopped(let reason): "\(reason) before the reply came"
        case .notSent(let reason): "not sent: \(reason)"
        case .notAllSent(let reason): "not all sent: \(reason)"
        case .cancelled: "cancelled"
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds (rounded down).
    public var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
