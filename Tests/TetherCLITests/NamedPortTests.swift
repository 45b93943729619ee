import Testing
import TetherCommandLine
import TetherConnection
import TetherDeviceSettings
import TetherModel
import TetherSerial

@testable import tether

/// `tether run`'s `--port NAME=PATH,KEY=VALUE…`: its inline settings are a layer over
/// the command line's.
@Suite struct NamedPortTests {
    @Test func anInlinePortSettingIsCheckedAndLayered() throws {
        let port = try NamedPort(parsing: "modem=sim:at-modem,dialect=at,baud=9600,urc=^A,urc=^B")
        #expect(port.name == "modem")
        #expect(port.target == .simulator(profile: "at-modem"))
        let settings = try DeviceSettings(try ParsedArguments([], spec: RunCommand.spec), above: port.settings)
        #expect(settings.configuration.baudRate == 9600)
        #expect(settings.dialect.kind?.name == ATDialect.kind.name)
        #expect(settings.dialect.settings.unsolicitedPrefixes == ["^A", "^B"])
        #expect(
            throws: UsageError(
                "'--port m=sim,parity=bad': parity: The value 'bad' is invalid for '--parity <parity>'. Please provide one of 'none', 'odd', 'even', 'mark', 'space'."
            )
        ) {
            try NamedPort(parsing: "m=sim,parity=bad")
        }
    }
}
