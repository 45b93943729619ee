import Testing
import TetherCommandLine
import TetherDeviceSettings
import TetherModel
import TetherSerial

/// Device settings in layers: a `--device` file under the command line, a `tether run`
/// port's own settings over it.
@Suite struct SettingsLayerTests {
    /// A command taking the device options and two others, as `tether run` does.
    static let spec = CommandSpec(
        program: "test", abstract: "device settings",
        options: DeviceSettings.options + [
            Flag("--dry-run", help: "Not a device option.").declaration,
            Option<Int>(
                "--timeout", value: "ms", help: "Not a device option.", default: 0,
                range: .integers(atLeast: 0, "ms")
            )
            .declaration,
        ])

    static func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(arguments, spec: spec)
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
            "baud: The value 'fast' is invalid for '--baud <rate>': must be a whole number, 1 to 2147483647 baud"
        ),
        ("bud", ["9600"], "bud: unknown setting; did you mean 'baud'?"),
        ("check-errors", ["yes"], "check-errors: expected true or false"),
        ("parity", ["odd", "even"], "parity: expected one value, got 2"),
        ("urc", ["^A", ""], "urc: The value of '--urc <prefix>' is empty. Please provide a non-empty prefix."),
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
}
