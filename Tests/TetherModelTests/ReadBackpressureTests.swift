import Dispatch
import Foundation
import Synchronization
import Testing
import TetherSerial

@testable import TetherModel

/// The reading thread stops reading when the Model falls behind, so a device that
/// sends faster than tether frames pushes back on the line instead of growing memory
/// (shared/cases/CASE-11: 64 MiB without a terminator grew tether by 110 MiB before).
@Suite struct ReadBackpressureTests {
    /// A device that always has 4 KiB more to send, counting the reads.
    final class EndlessTransport: SerialTransport {
        let name = "endless"
        let reads = Mutex(0)
        func read(maxBytes: Int, timeout: Int) throws(SerialError) -> SerialReadResult {
            reads.withLock { $0 += 1 }
            return .data([UInt8](repeating: 0x41, count: min(maxBytes, 4096)))
        }
        func write(_ bytes: [UInt8], timeout: Int) throws(SerialError) {}
        func close() {}
    }

    @Test func readingWaitsForTheConsumer() async throws {
        let transport = EndlessTransport()
        let (stream, credits) = Device.startReading(transport)
        var iterator = stream.makeAsyncIterator()
        try await Task.sleep(for: .milliseconds(500))
        let unconsumed = transport.reads.withLock { $0 }
        #expect(unconsumed <= ReadCredits.limit + 1, "read \(unconsumed) chunks with nobody consuming")
        for _ in 0..<10 {
            _ = await iterator.next()
            credits.give()
        }
        try await Task.sleep(for: .milliseconds(500))
        let afterTen = transport.reads.withLock { $0 }
        #expect(afterTen > unconsumed, "reading resumes once chunks are handled")
        #expect(afterTen <= ReadCredits.limit + 11)
        credits.cancel()
    }
}
