import Foundation
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
    static func startReading(_ transport: any SerialTransport) -> AsyncStream<ReadChunk> {
        let (stream, continuation) = AsyncStream.makeStream(of: ReadChunk.self)
        let thread = Thread {
            var isCaughtUp = false
            while true {
                do throws(SerialError) {
                    switch try transport.read(maxBytes: 4096, timeout: isCaughtUp ? 500 : 1) {
                    case .data(let bytes):
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
        return stream
    }
}
