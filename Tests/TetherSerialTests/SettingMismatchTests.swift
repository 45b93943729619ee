import Glibc
import Testing
import TetherSerial

/// The comparison of asked-for settings with the ones read back, and the reading of
/// termios flags into settings.
@Suite struct SettingMismatchTests {
    @Test func equalSettingsHaveNoMismatch() {
        let asked = SerialConfiguration(baudRate: 9600, dataBits: 7, parity: .even, stopBits: 2, flowControl: .rtsCts)
        #expect(asked.mismatches(in: asked).isEmpty)
    }

    @Test func everyDifferingSettingIsNamedInFieldOrder() {
        let asked = SerialConfiguration(baudRate: 250_000, dataBits: 7, parity: .odd, stopBits: 2, flowControl: .dtrDsr)
        #expect(
            asked.mismatches(in: SerialConfiguration()) == [
                SettingMismatch(setting: "baud rate", requested: "250000", actual: "115200"),
                SettingMismatch(setting: "data bits", requested: "7", actual: "8"),
                SettingMismatch(setting: "parity", requested: "odd", actual: "none"),
                SettingMismatch(setting: "stop bits", requested: "2", actual: "1"),
                SettingMismatch(setting: "flow control", requested: "DTR/DSR", actual: "none"),
            ])
    }

    @Test func aMismatchReadsAsOneLine() {
        #expect(
            SettingMismatch(setting: "parity", requested: "odd", actual: "none").description
                == "parity odd was asked for, the port has none")
    }

    @Test func theStrictFailureNamesEveryMismatch() {
        let error = SerialError.settingsNotApplied(
            path: "/dev/ttyUSB0",
            [
                SettingMismatch(setting: "parity", requested: "odd", actual: "none"),
                SettingMismatch(setting: "baud rate", requested: "250000", actual: "230400"),
            ])
        #expect(
            error.description
                == "/dev/ttyUSB0: settings not applied: parity odd was asked for, the port has none; "
                + "baud rate 250000 was asked for, the port has 230400")
    }

    /// Parity from PARENB, PARODD and CMSPAR: without PARENB (what a pty leaves) the
    /// other two do not count.
    @Test(arguments: [
        (tcflag_t(0), Parity.none), (tcflag_t(PARODD), .none), (tcflag_t(CMSPAR), .none),
        (tcflag_t(PARENB), .even), (tcflag_t(PARENB | PARODD), .odd), (tcflag_t(PARENB | CMSPAR), .space),
        (tcflag_t(PARENB | PARODD | CMSPAR), .mark),
    ])
    func parityIsReadFromTheControlFlags(flags: tcflag_t, parity: Parity) {
        var settings = termios()
        settings.c_cflag = flags | tcflag_t(CS8)
        #expect(SerialConfiguration(termios: settings, baudRate: 9600).parity == parity)
    }

    @Test func dataBitsStopBitsAndFlowControlAreReadFromTheFlags() {
        var settings = termios()
        settings.c_cflag = tcflag_t(CS5 | CSTOPB) | tcflag_t(CRTSCTS)
        #expect(
            SerialConfiguration(termios: settings, baudRate: 12_345_678)
                == SerialConfiguration(baudRate: 12_345_678, dataBits: 5, stopBits: 2, flowControl: .rtsCts))
        settings.c_cflag = tcflag_t(CS7)
        settings.c_iflag = tcflag_t(IXON | IXOFF)
        #expect(SerialConfiguration(termios: settings, baudRate: 9600).flowControl == .xonXoff)
        settings.c_iflag = tcflag_t(IXON)
        #expect(SerialConfiguration(termios: settings, baudRate: 9600).flowControl == .none)
        #expect(SerialConfiguration(termios: settings, baudRate: 9600).dataBits == 7)
    }
}
