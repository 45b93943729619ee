import Foundation

/// What the serving thread and the ``Simulator``'s callers share, under one lock.
///
/// `@unchecked Sendable`: every field is read and written only while `condition` is
/// locked (through ``withLock(_:)``, ``finish(_:)`` and ``waitUntilStopped()``).
final class ServingState: @unchecked Sendable {
    /// The shared fields.
    struct Fields {
        /// The bytes received from clients, in order: at most the last
        /// ``Simulator/receivedLimit`` bytes.
        var received: [UInt8] = []

        /// Appends `bytes` to ``received``, dropping the oldest past the limit, so a
        /// simulator that runs for days does not grow.
        mutating func record(received bytes: [UInt8]) {
            received += bytes
            if received.count > Simulator.receivedLimit {
                // Down to half the limit, so the copy happens once per half-limit.
                received.removeFirst(received.count - Simulator.receivedLimit / 2)
            }
        }
        /// A client has the slave open (as last seen by the serving thread).
        var isClientConnected = false
        /// ``Simulator/stop()`` was called.
        var isStopRequested = false
        /// The serving thread runs (the master is open, or the device is away for a
        /// disconnect fault and comes back).
        var isRunning = true
        /// The current pseudo-terminal; `nil` while the device is away and once stopped.
        var terminal: PseudoTerminal?
        /// The current slave's path (a new one after each reappearance).
        var devicePath = ""
    }

    private let condition = NSCondition()
    private var fields: Fields

    /// Shared state for serving `terminal`.
    init(terminal: PseudoTerminal) {
        fields = Fields(terminal: terminal, devicePath: terminal.slavePath)
    }

    /// Runs `body` with exclusive access to the fields.
    func withLock<Result>(_ body: (inout Fields) -> Result) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return body(&fields)
    }

    /// Runs `cleanup` (closing the master, removing the link) under the lock, then marks
    /// the serving thread stopped and wakes ``waitUntilStopped()``: whoever waits sees
    /// the cleanup done.
    func finish(_ cleanup: (inout Fields) -> Void) {
        condition.lock()
        cleanup(&fields)
        fields.isRunning = false
        fields.isClientConnected = false
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until ``finish(_:)`` has run.
    func waitUntilStopped() {
        condition.lock()
        while fields.isRunning {
            condition.wait()
        }
        condition.unlock()
    }
}
