import Foundation
import Glibc
import Testing
import TetherPoll

@Suite struct WakeUpPipeTests {
    @Test func waitsUntilSignalledAndDrainEmptiesIt() throws {
        let pipe = try WakeUpPipe()
        defer { pipe.close() }
        #expect(!pipe.wait(milliseconds: 0))
        pipe.signal()
        pipe.signal()
        #expect(pipe.wait(milliseconds: 0))
        #expect(pipe.wait(milliseconds: 0), "waiting does not drain")
        pipe.drain()
        #expect(!pipe.wait(milliseconds: 0))
    }

    @Test func aSignalFromAnotherThreadEndsAWait() throws {
        let pipe = try WakeUpPipe()
        defer { pipe.close() }
        let signaller = Thread { pipe.signal() }
        signaller.start()
        // A generous limit: the wait ends when the other thread signals, long before.
        #expect(pipe.wait(milliseconds: 60_000))
    }

    @Test func signallingAFullPipeNeverBlocks() throws {
        let pipe = try WakeUpPipe()
        defer { pipe.close() }
        // A Linux pipe holds 64 KiB: the signals past that would block a blocking pipe.
        for _ in 0..<100_000 { pipe.signal() }
        pipe.drain()
        #expect(!pipe.wait(milliseconds: 0))
    }

    @Test func bothEndsAreNonBlockingAndCloseOnExec() throws {
        let pipe = try WakeUpPipe()
        defer { pipe.close() }
        for end in [pipe.readEnd, pipe.writeEnd] {
            #expect(fcntl(end, F_GETFD) & FD_CLOEXEC != 0)
            #expect(fcntl(end, F_GETFL) & O_NONBLOCK != 0)
        }
    }
}
