import Foundation
import Glibc
import Testing
import TetherLibC

@testable import TetherSerial

/// The device goes away while a read waits, or the port is closed.
@Suite struct SerialPortHangUpTests {
    @Test func hangUpEndsAPendingReadPromptlyWithoutSpinning() async throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        let outcome = try await onDedicatedThread { () throws -> (SerialReadResult, Duration, Double, Double) in
            let cpuBefore = threadCPUSeconds()
            let start = ContinuousClock.now
            Thread {
                usleep(300_000)
                pty.closeMaster()
            }.start()
            let result = try port.read(maxBytes: 64, timeout: 10_000)
            let waited = ContinuousClock.now - start
            let cpuForRead = threadCPUSeconds() - cpuBefore
            // After the hang-up every read answers at once; a caller that keeps
            // reading for a second is told each time and burns no CPU in tether.
            let cpuBeforeLoop = threadCPUSeconds()
            let loopEnd = ContinuousClock.now + .seconds(1)
            while ContinuousClock.now < loopEnd {
                guard try port.read(maxBytes: 64, timeout: 1000) == .hungUp else { break }
                usleep(10_000)
            }
            return (result, waited, cpuForRead, threadCPUSeconds() - cpuBeforeLoop)
        }
        let (result, waited, cpuForRead, cpuForLoop) = outcome
        #expect(result == .hungUp)
        #expect(waited < .seconds(3), "hang-up seen after \(waited), not within ~1 s")
        #expect(cpuForRead < 0.2, "read used \(cpuForRead) s of CPU around the hang-up")
        #expect(cpuForLoop < 0.2, "reads after the hang-up used \(cpuForLoop) s of CPU")
        #expect(try port.read(maxBytes: 1, timeout: 5000) == .hungUp)
    }

    @Test func writeAfterHangUpIsDisconnected() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        pty.closeMaster()
        #expect(throws: SerialError.disconnected(path: pty.slavePath)) {
            try port.write(Array("AT\r".utf8), timeout: 1000)
        }
    }

    @Test func closeIsIdempotentAndLaterCallsFailCleanly() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        port.close()
        port.close()
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(throws: SerialError.self) {
            try buffer.withUnsafeMutableBytes { (all) throws(SerialError) in try port.receive(into: all) }
        }
        #expect(throws: SerialError.self) {
            try [0x41].withUnsafeBytes { (all) throws(SerialError) in try port.transmit(all) }
        }
        #expect(throws: SerialError.self) { try port.modemLines() }
        // The port is free again: the lock went with the close.
        let again = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        again.close()
    }
}
