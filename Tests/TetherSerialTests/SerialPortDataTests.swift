import Glibc
import Testing

@testable import TetherSerial

/// Bytes go through unchanged both ways.
@Suite struct SerialPortDataTests {
    /// Reads until `count` bytes arrived or a read times out.
    private func receive(_ count: Int, from port: SerialPort) throws -> [UInt8] {
        var received: [UInt8] = []
        while received.count < count {
            guard case .data(let bytes) = try port.read(maxBytes: 64, timeout: 2000) else { break }
            received += bytes
        }
        return received
    }

    @Test(
        arguments: [
            [0x01, 0x0D, 0x0A, 0x0D, 0x02, 0x0D],  // CR and LF untouched
            [
                0xF2, 0x00, 0x00, 0x0F, 0x50, 0x30, 0x30, 0x32, 0x31, 0x30, 0x4D, 0x00, 0x04, 0x04, 0xA5, 0x11, 0x4E,
                0xA9, 0x08, 0x03, 0xDB,
            ],  // 0x11 at offset 15 is data
            Array("A\u{13}B\u{11}C\n".utf8),  // XON/XOFF inside a line
            [0x00, 0x4F, 0x00, 0x4B, 0x00, 0x0D, 0x0A, 0x00],  // NULs kept
            [0x03, 0x1A, 0x1C, 0x7F, 0x15, 0x17, 0x12, 0x16, 0xFF],  // ^C ^Z ^\ DEL ^U ^W ^R ^V: no signals, no editing
        ] as [[UInt8]])
    func receivedBytesArriveExactly(bytes: [UInt8]) throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        try pty.send(bytes)
        #expect(try receive(bytes.count, from: port) == bytes)
        #expect(try port.read(maxBytes: 64, timeout: 100) == .timedOut)
    }

    @Test func writtenBytesArriveExactly() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        try port.write([0x41, 0x54, 0x0D], timeout: 1000)
        #expect(pty.receive(count: 4, timeout: 300) == [0x41, 0x54, 0x0D])
        let binary: [UInt8] = [0x0A, 0x00, 0x11, 0x13, 0x0D, 0x0A, 0xFF]
        try port.write(binary, timeout: 1000)
        #expect(pty.receive(count: binary.count + 1, timeout: 300) == binary)
    }

    /// A received XOFF must not stop tether's output.
    @Test func receivedXOFFDoesNotStopOutput() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        try pty.send([0x13])
        #expect(try port.read(maxBytes: 8, timeout: 2000) == .data([0x13]))
        try port.write(Array("AT\r".utf8), timeout: 1000)
        #expect(pty.receive(count: 3, timeout: 2000) == Array("AT\r".utf8))
    }

    @Test func readTimesOutWhenNothingArrives() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        let start = ContinuousClock.now
        #expect(try port.read(maxBytes: 8, timeout: 200) == .timedOut)
        #expect(ContinuousClock.now - start >= .milliseconds(150))
    }

    @Test func readReturnsNoMoreThanMaxBytes() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        try pty.send(Array(0..<10))
        _ = pty.receive(count: 1, timeout: 100)  // let the bytes settle in the slave's buffer
        #expect(try port.read(maxBytes: 4, timeout: 2000) == .data([0, 1, 2, 3]))
        #expect(try receive(6, from: port) == Array(4..<10))
    }

    /// A receiver that stops reading stalls the writer: once the line's buffers are
    /// full, `transmit` takes nothing (0, not an error) until the receiver reads.
    @Test func aStalledReceiverMakesTransmitTakeNothing() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        let chunk = [UInt8](repeating: 0x55, count: 4096)
        var written = 0
        var taken = 1
        while taken > 0, written < 1024 * 1024 {
            taken = try chunk.withUnsafeBytes { (all) throws(SerialError) in try port.transmit(all) }
            written += taken
        }
        #expect(taken == 0)
        #expect(written > 0 && written < 1024 * 1024)
        _ = pty.receive(count: 4096, timeout: 2000)
        #expect(try chunk.withUnsafeBytes { (all) throws(SerialError) in try port.transmit(all) } > 0)
    }
}
