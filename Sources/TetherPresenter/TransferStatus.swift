import FoundationEssentials

/// Where a file transfer stands, for a view: what `send` and `receive` show as a
/// progress bar on a terminal and as `transfer` records in JSON (docs/JSON.md).
public struct TransferStatus: Sendable, Equatable {
    /// What this status reports.
    public enum Stage: Sendable, Equatable {
        /// A file begins.
        case start
        /// More of it went through.
        case progress
        /// The transfer is over: every file went through.
        case done
        /// The transfer failed, for `reason` (one line).
        case failed(reason: String)
    }

    /// When it was observed.
    public var time: Date
    /// The port as named (`/dev/ttyUSB0`, `sim:transfer (/dev/pts/3)`).
    public var port: String
    /// `send` or `receive`.
    public var direction: String
    /// The protocol's name (`ymodem`).
    public var protocolName: String
    /// What happened: a file began, more went through, or the transfer ended.
    public var stage: Stage
    /// The current file's name, when known (XMODEM receives none).
    public var file: String?
    /// Bytes of the current file through so far.
    public var bytes: Int
    /// The current file's size in bytes, when known.
    public var total: Int?
    /// Blocks sent or asked for again since the transfer began.
    public var retries: Int
    /// Files through so far.
    public var files: Int
    /// Time since the transfer began.
    public var elapsed: Duration
    /// Bytes per second over the current file so far (0 at its start); on ``Stage/done``
    /// over the whole transfer: every file's bytes over ``elapsed``, the time a summary
    /// line gives beside it.
    public var rate: Double
    /// The time left at ``rate``, when the size is known and bytes are moving.
    public var remaining: Duration? {
        guard let total, rate > 0 else { return nil }
        return .milliseconds(Int((Double(max(0, total - bytes)) / rate * 1000).rounded(.up)))
    }
}

/// A view of a transfer's ``TransferStatus`` (the progress bar, the JSON records).
public protocol TransferView: Sendable {
    /// Shows `status`: a file began, progress (at most ``TransferPresenter/progressInterval``
    /// apart), or the end.
    func render(transfer status: TransferStatus)
}
