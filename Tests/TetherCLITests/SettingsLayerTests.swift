import Foundation
import Testing
import TetherCommandLine
import TetherModel
import TetherSerial

@testable import tether

/// Device settings in layers: a `--device` file under the command line, a `tether run`
/// port's own settings over it.
@Suite struct SettingsLayerTests {
    static func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(arguments, spec: RunCommand.spec)
    }

    @Test func eachLayerOverridesTheOneBelowKeyByKey() throws {
        var file = SettingsLayer()
        try file.set("baud", to: ["9600"])
        try file.set("parity", to: ["even"])
        try file.set("urc", to: ["^A", "^B"])
        try file.set("check-errors", to: ["true"])
        var inline = SettingsLayer()
        try inline.set("urc", to: ["^C"])
        try inline.set("check-errors", to: ["false"])
        let arguments = try Self.parse(["--parity", "odd", "--urc", "^Z"])
        let settings = try DeviceSettings(arguments, below: [file], above: [inline])
        #expect(settings.configuration.baudRate == 9600)
        #expect(settings.configuration.parity == .odd)
        #expect(settings.dialect.settings.unsolicitedPrefixes == ["^C"])
        #expect(!settings.dialect.settings.checksErrors)
    }

    @Test func theCommandLineLayerHoldsOnlyTheDeviceOptionsGiven() throws {
        let layer = SettingsLayer(try Self.parse(["--baud", "300", "--check-errors", "--dry-run", "--timeout", "5"]))
        #expect(layer.values == ["--baud": ["300"]])
        #expect(layer.flags == ["--check-errors": true])
    }

    @Test(arguments: [
        (
            "baud", ["fast"],
            "baud: The value 'fast' is invalid for '--baud <rate>'. Please provide a positive whole number of baud, e.g. 9600 or 115200."
        ),
        ("bud", ["9600"], "bud: unknown setting; did you mean 'baud'?"),
        ("check-errors", ["yes"], "check-errors: expected true or false"),
        ("parity", ["odd", "even"], "parity: expected one value, got 2"),
        ("urc", ["^A", ""], "urc: The value '' is invalid for '--urc <prefix>'. Please provide a non-empty prefix."),
    ])
    func aBadSettingIsRefusedAsTheCommandLineWould(key: String, values: [String], message: String) {
        var layer = SettingsLayer()
        #expect(throws: SettingError.self) { try layer.set(key, to: values) }
        do {
            try layer.set(key, to: values)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func anInlinePortSettingIsCheckedAndLayered() throws {
        let port = try NamedPort(parsing: "modem=sim:at-modem,dialect=at,baud=9600,urc=^A,urc=^B")
        #expect(port.name == "modem")
        #expect(port.target == .simulator(profile: "at-modem"))
        let settings = try DeviceSettings(try Self.parse([]), above: port.settings)
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

    @Test func aDeviceDescriptionFileIsALayerUnderTheCommandLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tether-cli-\(getpid()).json").path
        try #"{"description": "bench modem", "dialect": "at", "baud": 9600, "urc": ["^SYSSTART"]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let options = try ConnectionOptions(
            try ParsedArguments(["--sim", "--device", path, "--baud", "19200"], spec: QueryCommand.spec), port: nil)
        #expect(options.configuration.baudRate == 19200)
        #expect(options.dialect.kind?.name == ATDialect.kind.name)
        #expect(options.dialect.settings.unsolicitedPrefixes == ["^SYSSTART"])
    }
}
