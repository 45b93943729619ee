import Synchronization
import Testing
import TetherModel
import TetherSerial

@Suite struct PortOpenerTests {
    /// Counts open attempts.
    final class Attempts: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    private static func failing(_ error: SerialError, attempts: Attempts) -> PortOpener {
        PortOpener(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(40)) { () throws(SerialError) in
            attempts.add()
            throw error
        }
    }

    @Test func backoffDoublesFromTheInitialDelayUpToTheMaximum() {
        let opener = PortOpener { () throws(SerialError) in throw .notFound(path: "x") }
        let delays = (0...7).map { opener.delay(afterFailures: $0) }
        #expect(
            delays == [
                .zero, .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
                .milliseconds(1600), .seconds(2), .seconds(2),
            ])
    }

    @Test func waitingGivesUpAfterTheTimeoutWithNotFound() async {
        let attempts = Attempts()
        let opener = Self.failing(.notFound(path: "/tmp/none"), attempts: attempts)
        let started = ContinuousClock.now
        await #expect(throws: SerialError.notFound(path: "/tmp/none")) {
            _ = try await opener.waitAndOpen(timeout: Duration.milliseconds(300))
        }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        // 10, 20, 40, 40 … ms apart: a handful of attempts, not a busy loop.
        #expect((1...40).contains(attempts.value))
    }

    @Test func waitingRetriesUntilThePortAppears() async throws {
        let attempts = Attempts()
        let opener = PortOpener(initialDelay: .milliseconds(10)) { () throws(SerialError) -> any SerialTransport in
            attempts.add()
            guard attempts.value >= 3 else { throw .notFound(path: "/tmp/later") }
            return NullTransport()
        }
        let port = try await opener.waitAndOpen(timeout: nil)
        #expect(port.name == "null")
        #expect(attempts.value == 3)
    }

    @Test func waitingStopsAtOnceForAFailureOtherThanNotFound() async {
        let attempts = Attempts()
        let opener = Self.failing(.busy(path: "/dev/ttyUSB0", holder: "picocom (pid 7)"), attempts: attempts)
        await #expect(throws: SerialError.busy(path: "/dev/ttyUSB0", holder: "picocom (pid 7)")) {
            _ = try await opener.waitAndOpen(timeout: Duration.seconds(30))
        }
        #expect(attempts.value == 1)
    }
}

/// A transport that never receives anything.
private final class NullTransport: SerialTransport {
    let name = "null"
    let descriptor: Int32 = -1
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int { 0 }
    func transmit(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int { bytes.count }
    func close() {}
}
