import Testing

@testable import TetherPresenter

/// ``DeviceIdentity``: an IEEE 488.2 `*IDN?` reply read leniently.
@Suite struct DeviceIdentityTests {
    @Test(
        arguments: [
            ("ACME,PSU-30,12345,2.4.1", "ACME", "PSU-30", "12345", "2.4.1"),
            (" ACME , PSU-30 ,0, 1.0 ", "ACME", "PSU-30", "0", "1.0"),
            ("ACME", "ACME", nil, nil, nil),
            ("ACME,,SN1", "ACME", nil, "SN1", nil),
            ("", nil, nil, nil, nil),
            ("A,B,C,D,E", "A", "B", "C", "D"),
        ] as [(String, String?, String?, String?, String?)])
    func fieldsAreTrimmedAndMissingOnesAreNil(
        raw: String, manufacturer: String?, model: String?, serial: String?, firmware: String?
    ) {
        let identity = DeviceIdentity(parsing: raw)
        #expect(identity.raw == raw)
        #expect(identity.manufacturer == manufacturer)
        #expect(identity.model == model)
        #expect(identity.serialNumber == serial)
        #expect(identity.firmware == firmware)
        #expect(identity.source == .reply)
    }
}
