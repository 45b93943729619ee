import Foundation

/// What the serving thread and the ``Simulator``'s callers share, under one lock.
///
/// `@unchecked Sendable`: every field is read and written only while `condition` is
/// locked (through ``withLock(_:)``, ``finish(_:)`` and ``waitUntilStopped()``).
final class ServingState: @unchecked Sendable {
    /// The shared fields.
    struct Fields {
        /// Every byte received from clients, in order.
        var received: [UInt8] = []
        /// A client has the slave open (as last seen by the serving thread).
        var isClientConnected = false
        /// ``Simulator/stop()`` was called.
        var isStopRequested = false
        /// The serving thread runs and the master is open.
        var isRunning = true
    }

    private let condition = NSCondition()
    private var fields = Fields()

    /// Runs `body` with exclusive access to the fields.
    func withLock<Result>(_ body: (inout Fields) -> Result) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return body(&fields)
    }

    /// Runs `cleanup` (closing the master, removing the link) under the lock, then marks
    /// the serving thread stopped and wakes ``waitUntilStopped()``: whoever waits sees
    /// the cleanup done.
    func finish(_ cleanup: () -> Void) {
        condition.lock()
        cleanup()
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
