import Glibc
import Testing

@testable import TetherSerial

/// The line settings tether leaves on the port, read on the pty master, which shares them.
@Suite struct SerialPortTermiosTests {
    @Test func inputOutputAndLocalTranslationsAreOff() throws {
        let pty = try PseudoTerminal()
        // Precondition: a fresh pty is in cooked mode with XON/XOFF.
        #expect(isSet(pty.settings().c_iflag, ICRNL | IXON))
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        let settings = pty.settings()
        for (name, bit) in [("ICRNL", ICRNL), ("INLCR", INLCR), ("IGNCR", IGNCR), ("ISTRIP", ISTRIP)] {
            #expect(!isSet(settings.c_iflag, bit), "\(name) is on")
        }
        for (name, bit) in [("IXON", IXON), ("IXOFF", IXOFF), ("IXANY", IXANY)] {
            #expect(!isSet(settings.c_iflag, bit), "\(name) is on")
        }
        for (name, bit) in [("ICANON", ICANON), ("ECHO", ECHO), ("ISIG", ISIG), ("IEXTEN", IEXTEN)] {
            #expect(!isSet(settings.c_lflag, bit), "\(name) is on")
        }
        #expect(!isSet(settings.c_oflag, OPOST))
        // DTR kept by default: closing must not drop it.
        #expect(!isSet(settings.c_cflag, HUPCL))
    }

    @Test func xonXoffFlowControlTurnsSoftwareFlowControlOn() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration(flowControl: .xonXoff))
        defer { port.close() }
        let settings = pty.settings()
        #expect(isSet(settings.c_iflag, IXON))
        #expect(isSet(settings.c_iflag, IXOFF))
        #expect(!isSet(settings.c_iflag, IXANY))
    }

    @Test func explicitDTRKeepsHangUpOnClose() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(
            pty.slavePath, configuration: SerialConfiguration(), options: .init(dtr: .on))
        defer { port.close() }
        #expect(isSet(pty.settings().c_cflag, HUPCL))
    }

    @Test(arguments: [9600, 115_200, 250_000, 74_880, 12_345_678])
    func baudRateReadsBackExactly(baudRate: Int) throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration(baudRate: baudRate))
        defer { port.close() }
        #expect(pty.outputBaudRate() == UInt32(baudRate))
    }

    @Test func stopBitsAreApplied() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration(stopBits: 2))
        defer { port.close() }
        #expect(isSet(pty.settings().c_cflag, CSTOPB))
        #expect(pty.settings().c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
    }

    /// A pty forces 8 data bits without parity; libserialport notices and tether
    /// names the setting instead of running with the wrong format.
    @Test func settingThePortRefusesIsAnInvalidConfiguration() throws {
        let pty = try PseudoTerminal()
        #expect(throws: SerialError.invalidConfiguration("\(pty.slavePath) does not accept 7 data bits")) {
            try SerialPort.open(pty.slavePath, configuration: SerialConfiguration(dataBits: 7, parity: .even))
        }
    }
}
