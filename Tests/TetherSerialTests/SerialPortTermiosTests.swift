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

    /// libserialport 0.1.1 sets `CRTSCTS` in the input flags, where it is lost: the
    /// read-back showed RTS/CTS flow control missing on every port.
    @Test func rtsCtsFlowControlReachesTheLine() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration(flowControl: .rtsCts))
        #expect(pty.settings().c_cflag & tcflag_t(CRTSCTS) != 0)
        port.close()
        let plain = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { plain.close() }
        #expect(pty.settings().c_cflag & tcflag_t(CRTSCTS) == 0)
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

    /// A pty forces 8 data bits without parity. The port opens, and its settings
    /// report says what it has: one mismatch per setting it did not take, the same for
    /// all four parities (even parity used to be refused while odd, mark and space
    /// were shown as applied).
    @Test(arguments: [Parity.odd, .even, .mark, .space])
    func aParityThePtyIgnoresIsAMismatch(parity: Parity) throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration(parity: parity))
        defer { port.close() }
        #expect(!isSet(pty.settings().c_cflag, PARENB))
        #expect(port.settingsReport.actual == SerialConfiguration())
        #expect(
            port.settingsReport.mismatches == [
                SettingMismatch(setting: "parity", requested: parity.rawValue, actual: "none")
            ])
    }

    @Test func dataBitsThePtyIgnoresAreAMismatch() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration(dataBits: 7, parity: .even))
        defer { port.close() }
        #expect(
            port.settingsReport.mismatches == [
                SettingMismatch(setting: "data bits", requested: "7", actual: "8"),
                SettingMismatch(setting: "parity", requested: "even", actual: "none"),
            ])
        #expect(port.settingsReport.actual?.summary == "115200 8N1")
    }

    /// libserialport refuses DTR/DSR flow control on Linux (`SP_ERR_SUPP`): the other
    /// settings are applied alone and the flow control reads back as none.
    @Test func flowControlTheDriverRefusesIsAMismatch() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(
            pty.slavePath, configuration: SerialConfiguration(baudRate: 9600, stopBits: 2, flowControl: .dtrDsr))
        defer { port.close() }
        #expect(
            port.settingsReport.mismatches == [
                SettingMismatch(setting: "flow control", requested: "DTR/DSR", actual: "none")
            ])
        #expect(port.settingsReport.actual?.summary == "9600 8N2")
    }

    /// A baud rate changed on the open port (connect's Ctrl-T B, and the Model again
    /// after a reconnect) is read back too, so `reconnected` shows it.
    @Test func aChangedBaudRateIsReadBack() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration(baudRate: 9600, parity: .odd))
        defer { port.close() }
        try port.setBaudRate(250_000)
        #expect(port.settingsReport.actual?.baudRate == 250_000)
        #expect(
            port.settingsReport.mismatches == [SettingMismatch(setting: "parity", requested: "odd", actual: "none")])
    }

    /// What a pty does keep reads back as asked, non-standard baud rates exactly.
    @Test(arguments: [
        SerialConfiguration(baudRate: 250_000), SerialConfiguration(baudRate: 74_880, stopBits: 2),
        SerialConfiguration(flowControl: .xonXoff), SerialConfiguration(flowControl: .rtsCts),
    ])
    func settingsThePtyKeepsReadBackAsAsked(configuration: SerialConfiguration) throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: configuration)
        defer { port.close() }
        #expect(port.settingsReport == SettingsReport(actual: configuration))
    }
}
