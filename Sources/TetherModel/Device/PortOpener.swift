import Dispatch
import TetherSerial

/// Opens a device's port, now or again later: how a ``Device`` reconnects after the
/// device went away, and how tether waits for a port that does not exist yet.
///
/// Attempts are spaced by a backoff: ``initialDelay`` before the first retry, doubling
/// up to ``maximumDelay`` (100 ms, 200 ms, 400 ms … 2 s by default). Between attempts
/// the caller sleeps (`Task.sleep`), so waiting costs no CPU; `open` itself runs on a
/// dedicated dispatch queue, never on Swift's cooperative pool (opening blocks).
///
/// ```swift
/// let opener = PortOpener { () throws(SerialError) in
///     try SerialPort.open("/dev/serial/by-id/usb-FTDI_FT232R_A1B2C3-if00-port0",
///                         configuration: SerialConfiguration())
/// }
/// let port = try await opener.waitAndOpen(timeout: .seconds(30))
/// ```
public struct PortOpener: Sendable {
    /// Opens the port with every setting and option it had the first time (and runs
    /// whatever must follow an open, e.g. a DTR reset pulse). Blocks.
    public let open: @Sendable () throws(SerialError) -> any SerialTransport
    /// The wait before the first retry.
    public var initialDelay: Duration
    /// The longest wait between two attempts.
    public var maximumDelay: Duration

    /// Creates an opener.
    ///
    /// - Parameters:
    ///   - initialDelay: the wait before the first retry (default 100 ms).
    ///   - maximumDelay: the longest wait between attempts (default 2 s).
    ///   - open: opens the port; throws `SerialError` when it cannot.
    public init(
        initialDelay: Duration = .milliseconds(100), maximumDelay: Duration = .seconds(2),
        open: @escaping @Sendable () throws(SerialError) -> any SerialTransport
    ) {
        self.open = open
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait after `failures` failed attempts in a row: ``initialDelay`` doubled
    /// `failures - 1` times, at most ``maximumDelay``; zero before the first attempt.
    public func delay(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        var delay = initialDelay
        for _ in 1..<failures where delay < maximumDelay { delay *= 2 }
        return min(delay, maximumDelay)
    }

    /// Runs ``open`` once on a dedicated queue.
    ///
    /// - Throws: what ``open`` throws.
    public func openOnce() async throws(SerialError) -> any SerialTransport {
        let open = self.open
        let result: Result<any SerialTransport, SerialError> = await withCheckedContinuation { done in
            Self.queue.async {
                done.resume(returning: Result { () throws(SerialError) in try open() })
            }
        }
        return try result.get()
    }

    /// Opens the port, waiting for it to appear: while the path does not exist
    /// (`SerialError/notFound(path:)`: no node, or a link not yet made or dangling)
    /// it retries with the backoff; any other failure is thrown at once.
    ///
    /// - Parameter timeout: how long to wait for the port, or `nil` to wait until the
    ///   task is cancelled.
    /// - Returns: the open port.
    /// - Throws: `SerialError/notFound(path:)` when `timeout` passed (or the task was
    ///   cancelled) and the port still did not exist; any other `SerialError` of
    ///   ``open`` as soon as it occurs.
    public func waitAndOpen(timeout: Duration?) async throws(SerialError) -> any SerialTransport {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var failures = 0
        while true {
            do throws(SerialError) {
                return try await openOnce()
            } catch .notFound(let path) {
                failures += 1
                var wake = ContinuousClock.now + delay(afterFailures: failures)
                if let deadline {
                    guard ContinuousClock.now < deadline else { throw .notFound(path: path) }
                    wake = min(wake, deadline)
                }
                do {
                    try await Task.sleep(until: wake, clock: .continuous)
                } catch {
                    throw .notFound(path: path)
                }
            }
        }
    }

    /// Where ``open`` runs.
    private static let queue = DispatchQueue(label: "tether.device.open")
}
