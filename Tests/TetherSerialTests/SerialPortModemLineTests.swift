import Testing

@testable import TetherSerial

/// Modem lines, break, drain and flush on a pty go through the compatibility layer:
/// documented values, never a crash.
@Suite struct SerialPortModemLineTests {
    @Test(arguments: SerialPort.LineControl.allCases, SerialPort.LineControl.allCases)
    func lineOptionsOpenAPty(dtr: SerialPort.LineControl, rts: SerialPort.LineControl) throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(
            pty.slavePath, configuration: SerialConfiguration(), options: .init(dtr: dtr, rts: rts))
        defer { port.close() }
        let lines = try port.modemLines()
        // Inputs on a pty: CTS, DSR and DCD asserted, RI not.
        #expect(lines.isSuperset(of: [.cts, .dsr, .dcd]))
        #expect(!lines.contains(.ri))
        if dtr != .keep { #expect(lines.contains(.dtr) == (dtr == .on)) }
        if rts != .keep { #expect(lines.contains(.rts) == (rts == .on)) }
    }

    /// libserialport's sp_set_dtr/sp_set_rts reach the emulation and read back.
    @Test func settingLinesReadsBack() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        try port.setDTR(false)
        try port.setRTS(true)
        #expect(try port.modemLines().intersection([.dtr, .rts]) == [.rts])
        try port.setDTR(true)
        try port.setRTS(false)
        #expect(try port.modemLines().intersection([.dtr, .rts]) == [.dtr])
        try port.pulseDTR(milliseconds: 20)
        #expect(try port.modemLines().contains(.dtr))
    }

    @Test func breakDrainAndFlushWorkOnAPty() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { port.close() }
        try port.sendBreak(milliseconds: 20)
        try port.write(Array("AT\r".utf8), timeout: 1000)
        #expect(pty.receive(count: 3) == Array("AT\r".utf8))
        try port.drain()
        try pty.send([0x31, 0x32])
        _ = pty.receive(count: 1, timeout: 100)  // let the bytes reach the slave
        try port.flush(input: true, output: false)
        #expect(try port.read(maxBytes: 8, timeout: 200) == .timedOut)
    }

    @Test func modemLinesDescribeThemselves() {
        #expect(ModemLines([.dtr, .cts, .dcd]).description == "DTR CTS DCD")
        #expect(ModemLines().description == "none")
    }
}
