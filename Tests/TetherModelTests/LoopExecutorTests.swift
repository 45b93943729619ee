import Glibc
import Synchronization
import Testing
import TetherModel
import TetherSerial

/// `Device.executor`: a task that prefers the port loop's thread is resumed there, in
/// the turn that read its reply; one that prefers a loop not serving the port (before
/// the start, after the close) still runs, on Swift's global executor.
@Suite(.timeLimit(.minutes(2))) struct LoopExecutorTests {
    private func device(_ transport: SocketTransport) throws -> Device {
        try Device(transport: transport, dialect: LineDialect(), settings: "115200 8N1")
    }

    /// The device answers `count` commands of 3 bytes, `A0`, `A1`…, each once it is read.
    private func answer(_ count: Int, on transport: SocketTransport) -> Task<Void, Never> {
        Task.detached {
            for index in 0..<count {
                _ = await transport.received(count: 3)
                transport.send("A\(index)\n")
            }
        }
    }

    /// Three queries in turn: after each `await`, the task runs on the thread that read
    /// the reply, and gets its own reply.
    @Test func aQueryThatPrefersTheLoopResumesOnTheLoopThread() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        await device.start()
        let answering = answer(3, on: transport)
        let results = try await withTaskExecutorPreference(device.executor) {
            var results: [(reply: String, onLoop: Bool)] = []
            for index in 0..<3 {
                let reply = try await device.query("Q\(index)", timeout: .seconds(120))
                let loopThread = transport.readingThread.withLock { $0 }
                let isOnLoop = loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
                results.append((reply.lines.map(\.text).joined(), isOnLoop))
            }
            return results
        }
        await answering.value
        #expect(results.map(\.reply) == ["A0", "A1", "A2"])
        #expect(results.map(\.onLoop) == [true, true, true])
        await device.close()
    }

    /// A task that prefers the loop starts the device, queries, closes it and goes on
    /// after the close: before the start and after the end its jobs run elsewhere, and
    /// nothing waits for a loop that is gone.
    @Test func aTaskThatPrefersTheLoopOutlivesTheDevice() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        let answering = answer(1, on: transport)
        let outcome = await withTaskExecutorPreference(device.executor) { () async -> String in
            await device.start()
            let reply = try? await device.query("Q0", timeout: .seconds(120))
            await device.close()
            await Task.yield()
            do {
                _ = try await device.query("Q1", timeout: .seconds(1))
                return "answered after the close"
            } catch {
                return "\(reply?.lines.map(\.text) ?? []) then \(error)"
            }
        }
        await answering.value
        #expect(outcome.hasPrefix("[\"A0\"] then "))
        #expect(!outcome.contains("answered"))
    }

    /// A query that prefers the loop and is cancelled while it waits ends at once with
    /// `cancelled`.
    @Test func aCancelledQueryThatPrefersTheLoopEnds() async throws {
        let transport = try SocketTransport()
        let device = try device(transport)
        await device.start()
        let slow = Task(executorPreference: device.executor) { try await device.query("SLOW", timeout: nil) }
        #expect(await transport.received(count: 5) == "SLOW\n")
        slow.cancel()
        await #expect(throws: RequestFailure.cancelled) { try await slow.value }
        await device.close()
    }
}
