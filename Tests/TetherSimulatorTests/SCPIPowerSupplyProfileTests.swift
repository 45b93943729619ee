import Foundation
import Testing

@testable import TetherSimulator

/// The built-in `scpi-psu` profile (IEEE 488.2 common commands, SCPI error queue).
@Suite struct SCPIPowerSupplyProfileTests {
    let supply: ProfileHarness

    init() throws {
        supply = try ProfileHarness("scpi-psu")
    }

    @Test func identifiesItselfAndSetsVoltageAndCurrentInLongOrShortForm() {
        #expect(supply.exchange("*IDN?\n") == "TETHER,PSU-3610,SIM0001,1.0.0\n")
        #expect(supply.exchange("VOLT 5\nvolt?\n") == "5.000000\n")
        #expect(supply.exchange(":SOURce:VOLTage:LEVel 12.5\nVOLTAGE?\n") == "12.500000\n")
        #expect(supply.exchange("CURRent 0.5\nCURR?\n") == "0.500000\n")
        #expect(supply.exchange("APPL 3.3,0.25\nAPPL?\n") == "\"3.300000,0.250000\"\n")
        #expect(supply.exchange("VOLT MAX\nVOLT?;CURR?\n") == "30.000000;0.250000\n")
    }

    @Test func commandsAreSilentAndErrorsGoToTheQueue() {
        #expect(supply.exchange("VOLT 99\n") == "")
        #expect(supply.exchange("FOO?\n") == "")
        #expect(supply.exchange("VOLT abc\n") == "")
        #expect(supply.exchange("VOLT\n") == "")
        #expect(supply.exchange("SYST:ERR:COUN?\n") == "4\n")
        #expect(supply.exchange("SYST:ERR?\n") == "-222,\"Data out of range\"\n")
        #expect(supply.exchange("SYSTem:ERRor:NEXT?\n") == "-113,\"Undefined header\"\n")
        #expect(supply.exchange("SYST:ERR?\n") == "-102,\"Syntax error\"\n")
        #expect(supply.exchange("SYST:ERR?\n") == "-109,\"Missing parameter\"\n")
        #expect(supply.exchange("SYST:ERR?\n") == "0,\"No error\"\n")
        #expect(supply.exchange("VOLT?\n") == "0.000000\n")
    }

    @Test func clsEmptiesTheQueueAndAFullQueueEndsInOverflow() {
        _ = supply.exchange("FOO\n")
        #expect(supply.exchange("*CLS\nSYST:ERR?\n") == "0,\"No error\"\n")
        _ = supply.exchange(String(repeating: "FOO\n", count: 12))
        let entries = (1...11).map { _ in supply.exchange("SYST:ERR?\n") }
        #expect(entries.prefix(9).allSatisfy { $0 == "-113,\"Undefined header\"\n" })
        #expect(entries[9] == "-350,\"Queue overflow\"\n")
        #expect(entries[10] == "0,\"No error\"\n")
    }

    @Test func measuresOnlyWhileTheOutputIsOn() throws {
        _ = supply.exchange("VOLT 5\nCURR 1\n")
        #expect(supply.exchange("MEAS:VOLT?\n", at: .seconds(1)) == "0.00000E+00\n")
        #expect(supply.exchange("OUTP ON\nOUTP?\n", at: .seconds(1)) == "1\n")
        let measured = supply.exchange("MEASure:VOLTage:DC?\n", at: .seconds(2))
        #expect(measured.wholeMatch(of: #/\d\.\d{5}E[+-]\d\d\n/#) != nil, "\(measured)")
        #expect(abs(try #require(Double(measured.dropLast())) - 5) < 0.01)
        let current = supply.exchange("MEAS:CURR?\n", at: .seconds(2))
        #expect(abs(try #require(Double(current.dropLast())) - 0.1) < 0.001, "\(current)")
        #expect(supply.exchange("OUTP OFF\nOUTP?\n", at: .seconds(3)) == "0\n")
    }

    @Test func rstRestoresThePowerOnSettingsButKeepsTheQueue() {
        _ = supply.exchange("VOLT 7\nOUTP 1\nFOO\n")
        #expect(supply.exchange("*RST\nVOLT?;OUTP?\n") == "0.000000;0\n")
        #expect(supply.exchange("SYST:ERR?\n") == "-113,\"Undefined header\"\n")
    }
}
