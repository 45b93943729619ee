import Testing

@testable import TetherSimulator

/// The built-in `at-modem` profile (V.250 framing, 3GPP TS 27.007 commands).
@Suite struct ATModemProfileTests {
    let modem: ProfileHarness

    init() throws {
        modem = try ProfileHarness("at-modem")
    }

    @Test func echoesTheCommandThenFramesEachLine() {
        #expect(modem.exchange("AT+CSQ\r") == "AT+CSQ\r\r\n+CSQ: 20,99\r\n\r\nOK\r\n")
        #expect(modem.exchange("at\r") == "at\r\r\nOK\r\n")
    }

    @Test func ate0TurnsTheEchoOffAndATE1On() {
        #expect(modem.exchange("ATE0\r") == "ATE0\r\r\nOK\r\n")
        #expect(modem.exchange("AT+CGMI\r") == "\r\nTETHER\r\n\r\nOK\r\n")
        #expect(modem.exchange("ATE1\r") == "\r\nOK\r\n")
        #expect(modem.exchange("AT+CGMM\r") == "AT+CGMM\r\r\nSIM-M1\r\n\r\nOK\r\n")
    }

    @Test func answersIdentityRegistrationAndOperator() {
        _ = modem.exchange("ATE0\r")
        #expect(modem.exchange("ATI\r") == "\r\nTETHER\r\n\r\nSIM-M1\r\n\r\nRevision: SIMM1R01A01\r\n\r\nOK\r\n")
        #expect(modem.exchange("AT+CGSN\r") == "\r\n861234567890125\r\n\r\nOK\r\n")
        #expect(modem.exchange("AT+CREG?\r") == "\r\n+CREG: 0,1\r\n\r\nOK\r\n")
        #expect(modem.exchange("AT+COPS?\r") == "\r\n+COPS: 0,0,\"TETHER NET\",7\r\n\r\nOK\r\n")
        #expect(modem.exchange("AT+CREG=2\r") == "\r\nOK\r\n")
        #expect(modem.exchange("AT+CREG?\r") == "\r\n+CREG: 2,1\r\n\r\nOK\r\n")
    }

    @Test func errorsFollowTheCMEEMode() {
        _ = modem.exchange("ATE0\r")
        #expect(modem.exchange("AT+BOGUS\r") == "\r\n+CME ERROR: 4\r\n")
        #expect(modem.exchange("AT+CMEE=9\r") == "\r\n+CME ERROR: 3\r\n")
        #expect(modem.exchange("AT+CMEE=2\r") == "\r\nOK\r\n")
        #expect(modem.exchange("AT+BOGUS\r") == "\r\n+CME ERROR: operation not supported\r\n")
        #expect(modem.exchange("AT+CMEE=0\r") == "\r\nOK\r\n")
        #expect(modem.exchange("AT+BOGUS\r") == "\r\nERROR\r\n")
        #expect(modem.exchange("AT+CMEE?\r") == "\r\n+CMEE: 0\r\n\r\nOK\r\n")
    }

    @Test func linesEndInCRAndLineFeedsAreIgnored() {
        #expect(modem.exchange("ATE0\r\n") == "ATE0\r\r\nOK\r\n")
        #expect(modem.exchange("AT\n") == "")
        #expect(modem.exchange("\r") == "\r\nOK\r\n")
    }

    @Test func sendsRegistrationRingAndMessageURCsOnTheirSchedules() {
        #expect(modem.device.nextWakeUp == modem.start + .milliseconds(1500))
        #expect(modem.wakeUp(at: .milliseconds(1500)) == "\r\n+CREG: 1\r\n")
        #expect(modem.device.nextWakeUp == modem.start + .milliseconds(6000))
        #expect(modem.wakeUp(at: .milliseconds(6000)) == "\r\nRING\r\n")
        #expect(modem.wakeUp(at: .milliseconds(12000)) == "\r\n+CMTI: \"SM\",1\r\n")
        #expect(modem.wakeUp(at: .milliseconds(37000)).hasSuffix("\r\n+CMTI: \"SM\",2\r\n"))
    }

    @Test func atzRestoresThePowerOnSettings() {
        _ = modem.exchange("ATE0\r")
        _ = modem.exchange("AT+CMEE=0\r")
        #expect(modem.exchange("ATZ\r") == "\r\nOK\r\n")
        #expect(modem.exchange("AT+CMEE?\r") == "AT+CMEE?\r\r\n+CMEE: 1\r\n\r\nOK\r\n")
    }
}
