import Glibc
import Synchronization
import Testing

@testable import TetherSerial

/// The `PARMRK` marking on a real pty. A pty cannot receive a break or a framing error
/// (its master has no line to hold at space: `tcsendbreak` and `TIOCSBRK` on it succeed
/// and do nothing, docs/HARDWARE.md), so an open leaves it unmarked, on the kernel's raw
/// input path; the decoding of the kernel's marking is checked here by turning it on
/// after the open, and the marks themselves with `MarkedInputDecoderTests` and, through
/// the Model, `LineEventDeviceTests`.
@Suite struct SerialPortLineEventTests {
    @Test func openLeavesAPseudoTerminalUnmarked() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        #expect(pty.settings().c_iflag & tcflag_t(PARMRK) == 0)
        #expect(port.conditions.withLock { $0.input == nil })
    }

    @Test func markingSetsTheFlags() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        #expect(try SerialPort.markLineConditions(port.descriptor, name: port.name))
        let flags = pty.settings().c_iflag
        #expect(flags & tcflag_t(PARMRK) != 0)
        #expect(flags & tcflag_t(INPCK) != 0)
        #expect(flags & tcflag_t(IGNBRK | BRKINT | IGNPAR | ISTRIP) == 0)
    }

    /// Regression guard: with `PARMRK` on the kernel doubles a 0xFF data byte; the
    /// port gives it back once, and 0xFF 0x00 0x00 sent as data is data, not a break;
    /// unmarked, the same bytes come back as they are.
    @Test(
        arguments: [[0xFF], [0xFF, 0x00, 0x00], [0x41, 0xFF, 0xFF, 0x42], [0xFF, 0x00, 0x41, 0x0A]] as [[UInt8]],
        [false, true])
    func dataByteFFStaysFF(bytes: [UInt8], marked: Bool) throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        if marked {
            #expect(try SerialPort.markLineConditions(port.descriptor, name: port.name))
            port.conditions.withLock { $0.input = MarkedInput(checksParity: false) }
        }
        try pty.send(bytes)
        var received: [UInt8] = []
        while received.count < bytes.count, case .data(let more) = try port.read(maxBytes: 64, timeout: 2000) {
            received += more
            #expect(port.takeLineEvents().isEmpty)
        }
        #expect(received == bytes)
    }
}
