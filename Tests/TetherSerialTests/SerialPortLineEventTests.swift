import Glibc
import Testing

@testable import TetherSerial

/// The `PARMRK` marking on a real open: set on the line, and a 0xFF data byte stays one
/// 0xFF. A pty cannot receive a break or a framing error (its master has no line to
/// hold at space: `tcsendbreak` and `TIOCSBRK` on it succeed and do nothing,
/// docs/HARDWARE.md), so the marks themselves are checked with
/// `MarkedInputDecoderTests` and, through the Model, `LineEventDeviceTests`.
@Suite struct SerialPortLineEventTests {
    @Test func openSetsTheMarking() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        let flags = pty.settings().c_iflag
        #expect(flags & tcflag_t(PARMRK) != 0)
        #expect(flags & tcflag_t(INPCK) != 0)
        #expect(flags & tcflag_t(IGNBRK | BRKINT | IGNPAR | ISTRIP) == 0)
    }

    /// Regression guard: with `PARMRK` on the kernel doubles a 0xFF data byte; the
    /// port gives it back once, and 0xFF 0x00 0x00 sent as data is data, not a break.
    @Test(arguments: [[0xFF], [0xFF, 0x00, 0x00], [0x41, 0xFF, 0xFF, 0x42], [0xFF, 0x00, 0x41, 0x0A]] as [[UInt8]])
    func dataByteFFStaysFF(bytes: [UInt8]) throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        try pty.send(bytes)
        var received: [UInt8] = []
        while received.count < bytes.count, case .data(let more) = try port.read(maxBytes: 64, timeout: 2000) {
            received += more
            #expect(port.takeLineEvents().isEmpty)
        }
        #expect(received == bytes)
    }
}
