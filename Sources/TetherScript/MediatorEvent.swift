import TetherModel
import TetherPresenter

/// What the run mediator hands the script thread, in the order it happened on each
/// device. Devices are numbered by their place in the run (from 0).
enum MediatorEvent: Sendable {
    /// How a received line reached the script.
    enum LineKind: String, Sendable {
        /// An unsolicited line.
        case notification
        /// A line of a reply that came after its request had timed out.
        case lateReply = "late_reply"
    }

    /// A line that answers no request of the script.
    case line(device: Int, line: Line, kind: LineKind)
    /// The text after the device's last line, without a line end yet, once the line
    /// was quiet (``SessionEvent/pendingText(_:start:)``); `start` names it for
    /// ``RunMediator/consumePendingText(of:start:count:)``.
    case pendingText(device: Int, line: Line, start: Int)
    /// A request ended: `.success` with the reply (error replies included), or the
    /// failure.
    case finished(device: Int, id: RequestID, outcome: Result<Reply, RequestFailure>)
    /// A raw write (``RunMediator/write(_:to:immediately:)``, queued) was written.
    case written(device: Int, id: RequestID)
    /// Received bytes wait to be read (``RunMediator/read(from:count:acceptsFewer:)``);
    /// posted once until the script looks at them.
    case bytesArrived(device: Int)
    /// The UART reported a break, a framing or parity error, or a modem-line change
    /// (the Model's `DeviceEvent.Kind.lineEvent`).
    case lineEvent(device: Int, condition: LineCondition)
    /// The device's event stream ended; `isLost` when it disconnected by itself (not
    /// closed by the run).
    case ended(device: Int, reason: String, isLost: Bool)
}
