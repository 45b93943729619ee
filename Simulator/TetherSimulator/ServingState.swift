import Dispatch
import Synchronization

/// What the serving thread and the ``Simulator``'s callers share: the fields under one
/// `Mutex`, and whether the serving thread has stopped.
final class ServingState: Sendable {
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

    private let fields: Mutex<Fields>
    /// Entered while the serving thread runs; left by ``finish(_:)``.
    private let serving = DispatchGroup()

    /// Shared state for serving `terminal`.
    init(terminal: PseudoTerminal) {
        fields = Mutex(Fields(terminal: terminal, devicePath: terminal.slavePath))
        serving.enter()
    }

    /// Runs `body` with exclusive access to the fields.
    func withLock<Result: Sendable>(_ body: (inout Fields) -> Result) -> Result {
        fields.withLock { body(&$0) }
    }

    /// Runs `cleanup` (closing the master, removing the link) under the lock, marks the
    /// serving thread stopped, then wakes ``waitUntilStopped()``: whoever waits sees the
    /// cleanup done. Called once, by the serving thread as it ends.
    func finish(_ cleanup: (inout Fields) -> Void) {
        fields.withLock { fields in
            cleanup(&fields)
            fields.isRunning = false
            fields.isClientConnected = false
        }
        serving.leave()
    }

    /// Blocks until ``finish(_:)`` has run; returns at once when it has (any number of
    /// callers, any number of times).
    func waitUntilStopped() {
        serving.wait()
    }
}
