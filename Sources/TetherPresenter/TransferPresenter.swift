import FoundationEssentials
import TetherTransfer

/// Turns a transfer's events (`TransferEvent`) and outcome into the
/// ``TransferStatus``es a ``TransferView`` shows: each file's start, its progress at
/// most every ``progressInterval`` (and its last), and the end.
public struct TransferPresenter: Sendable {
    /// The shortest time between two progress statuses: 250 ms (4 a second).
    public static let progressInterval = Duration.milliseconds(250)

    private var status: TransferStatus
    private let began: ContinuousClock.Instant
    private var fileBegan: ContinuousClock.Instant
    private var lastProgress: ContinuousClock.Instant?
    /// Bytes of the files before the current one.
    private var earlierBytes = 0

    /// A presenter of a transfer that begins `now`.
    public init(port: String, direction: String, protocol kind: TransferProtocol, now: ContinuousClock.Instant) {
        status = TransferStatus(
            time: Date(), port: port, direction: direction, protocolName: kind.name, stage: .start, file: nil,
            bytes: 0, total: nil, retries: 0, files: 0, elapsed: .zero, rate: 0)
        began = now
        fileBegan = now
    }

    /// The status for `event`, or `nil` when there is nothing new to show (progress
    /// sooner than ``progressInterval`` after the last, a received file).
    public mutating func status(for event: TransferEvent, now: ContinuousClock.Instant) -> TransferStatus? {
        switch event {
        case .started(let name, let size):
            fileBegan = now
            lastProgress = nil
            earlierBytes += status.bytes
            (status.file, status.total, status.bytes, status.rate) = (name, size, 0, 0)
            return stamped(.start, now: now)
        case .progress(let progress):
            (status.bytes, status.retries) = (progress.bytes, progress.retries)
            if let total = progress.total { status.total = total }
            let seconds = (now - fileBegan) / .seconds(1)
            status.rate = seconds > 0 ? Double(progress.bytes) / seconds : 0
            let isLast = progress.total == progress.bytes
            if !isLast, let last = lastProgress, now - last < Self.progressInterval { return nil }
            lastProgress = now
            return stamped(.progress, now: now)
        case .received:
            status.files += 1
            return nil
        }
    }

    /// The last status: `done` or `failed` with the reason.
    public mutating func status(for outcome: TransferOutcome, now: ContinuousClock.Instant) -> TransferStatus {
        switch outcome {
        case .completed(let files):
            status.files = files.count
            let seconds = (now - began) / .seconds(1)
            status.rate = seconds > 0 ? Double(earlierBytes + status.bytes) / seconds : 0
            return stamped(.done, now: now)
        case .failed(let failure):
            return stamped(.failed(reason: failure.description), now: now)
        }
    }

    private mutating func stamped(_ stage: TransferStatus.Stage, now: ContinuousClock.Instant) -> TransferStatus {
        status.stage = stage
        status.time = Date()
        status.elapsed = now - began
        return status
    }
}
