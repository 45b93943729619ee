import Dispatch
import Foundation
import Synchronization
import TetherSerial

extension Device {
    /// What the reading thread hands to the actor.
    enum ReadChunk: Sendable {
        case data([UInt8])
        case end(reason: String)
        /// Everything that was waiting when reading began has been delivered.
        case caughtUp
    }

    /// Starts a dedicated thread that reads `transport` until it hangs up or fails,
    /// and returns its output in order. `read` blocks, so it never runs on Swift's
    /// cooperative pool. Each wait is bounded (500 ms) and a hang-up ends the loop, so
    /// the thread never spins (shared/cases/CASE-13). The first read that finds nothing
    /// waiting (1 ms) is followed by `.caughtUp`.
    ///
    /// At most ``ReadCredits/limit`` data chunks (4 KiB each) wait for the actor: the
    /// consumer returns a credit per chunk handled, and without one the thread stops
    /// reading, so a device that sends faster than tether can frame pushes back on the
    /// line (the kernel's buffer, then the sender) instead of growing memory
    /// (shared/cases/CASE-11).
    static func startReading(_ transport: any SerialTransport) -> (AsyncStream<ReadChunk>, ReadCredits) {
        let (stream, continuation) = AsyncStream.makeStream(of: ReadChunk.self)
        let credits = ReadCredits()
        continuation.onTermination = { _ in credits.cancel() }
        let thread = Thread {
            var isCaughtUp = false
            while true {
                do throws(SerialError) {
                    switch try transport.read(maxBytes: 4096, timeout: isCaughtUp ? 500 : 1) {
                    case .data(let bytes):
                        guard credits.take() else { return }
                        continuation.yield(.data(bytes))
                    case .timedOut:
                        if !isCaughtUp { continuation.yield(.caughtUp) }
                        isCaughtUp = true
                    case .hungUp:
                        continuation.yield(.end(reason: "device hung up"))
                        continuation.finish()
                        return
                    }
                } catch {
                    continuation.yield(.end(reason: error.description))
                    continuation.finish()
                    return
                }
            }
        }
        thread.name = "tether.read \(transport.name)"
        thread.start()
        return (stream, credits)
    }
}

/// How many read chunks the reading thread may hand over before the consumer has
/// handled them: a counting semaphore that can be cancelled.
final class ReadCredits: Sendable {
    /// Chunks in flight at most (4 KiB each).
    static let limit = 64

    // Made at 0 and raised to the limit: libdispatch traps when a semaphore is freed
    // below the value it was made with, as this one is when the port closes with
    // credits taken.
    private let semaphore = DispatchSemaphore(value: 0)
    private let isCancelled = Mutex(false)

    init() {
        for _ in 0..<Self.limit { semaphore.signal() }
    }

    /// Waits for a credit; `false` once the consumer has gone (stop reading).
    func take() -> Bool {
        while !isCancelled.withLock({ $0 }) {
            if semaphore.wait(timeout: .now() + .milliseconds(500)) == .success {
                return !isCancelled.withLock { $0 }
            }
        }
        return false
    }

    /// Returns a credit: one chunk was handled.
    func give() { semaphore.signal() }

    /// The consumer has gone: a waiting `take` returns `false`.
    func cancel() {
        isCancelled.withLock { $0 = true }
        semaphore.signal()
    }
}
