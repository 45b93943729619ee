import Foundation
import Testing
import TetherCommandLine
import TetherConnection
import TetherDeviceSettings
import TetherModel
import TetherSerial
import TetherSimulator

@testable import tether

/// The device commands' shared options, parsed as `tether query` parses them.
@Suite struct ConnectionOptionsTests {
    static func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ParsedArguments(arguments, spec: QueryCommand.spec)
    }

    static func options(_ arguments: [String], port: String? = nil) throws(UsageError) -> ConnectionOptions {
        try ConnectionOptions(parse(arguments), port: port)
    }

    @Test func defaultsAreSerialConfigurationsAndASecondTimeout() throws {
        let options = try Self.options(["--sim"])
        #expect(options.settings.configuration == SerialConfiguration())
        #expect(options.timeout == .milliseconds(1000))
        #expect("\(options.format)" == "text")
        #expect(options.usesSimulator)
        #expect(options.hardware.openOptions.dtr == .keep)
        #expect(options.simulatorFaults == FaultPlan())
    }

    @Test func everySerialSettingIsRead() throws {
        let options = try Self.options(
            ["-b", "9600", "--data-bits=7", "--parity", "EVEN", "--stop-bits", "2", "--flow-control", "rtscts"],
            port: "/dev/ttyUSB0")
        #expect(
            options.settings.configuration
                == SerialConfiguration(baudRate: 9600, dataBits: 7, parity: .even, stopBits: 2, flowControl: .rtsCts))
        #expect(options.address == .device("/dev/ttyUSB0"))
    }

    @Test func theHardwareOptionsAreRead() throws {
        let options = try Self.options(
            [
                "--dtr", "off", "--rts=on", "--pulse-dtr", "50", "--break", "250", "--wait-timeout", "2.5",
                "--strict-settings",
            ],
            port: "/dev/ttyUSB0")
        #expect(options.hardware.openOptions.dtr == .off)
        #expect(options.hardware.openOptions.rts == .on)
        #expect(options.hardware.pulseDTR == 50)
        #expect(options.hardware.breakLength == 250)
        #expect(options.hardware.waits)
        #expect(options.hardware.waitTimeout == .milliseconds(2500))
        #expect(options.hardware.requiresSettings)
        #expect(options.hardware.reconnection == .never)
        let monitor = try ParsedArguments(["--sim"], spec: MonitorCommand.spec)
        #expect(HardwareOptions(monitor).reconnection == .everyPort)
        #expect(
            HardwareOptions(try ParsedArguments(["--sim", "--no-reconnect"], spec: MonitorCommand.spec)).reconnection
                == .never)
    }

    /// `run` reopens a port on another machine, not a local one (docs/HARDWARE.md).
    @Test func runReconnectsRemotePortsOnly() throws {
        let reconnection = HardwareOptions(try ParsedArguments(["x.lua"], spec: RunCommand.spec)).reconnection
            .remoteOnly
        #expect(reconnection.applies(to: try PortAddress(parsing: "rfc2217://10.0.0.2:7001")))
        #expect(reconnection.applies(to: try PortAddress(parsing: "tcp://10.0.0.2:7000")))
        #expect(!reconnection.applies(to: try PortAddress(parsing: "/dev/ttyUSB0")))
        #expect(!reconnection.applies(to: nil))
        let never = HardwareOptions(try ParsedArguments(["x.lua", "--no-reconnect"], spec: RunCommand.spec))
        #expect(!never.reconnection.remoteOnly.applies(to: try PortAddress(parsing: "tcp://10.0.0.2:7000")))
    }

    /// `--hex`'s message spoke of `'time'`, which is `--timestamps`' matter.
    @Test(arguments: [
        (
            "--hex",
            "'--hex' applies only to text output; JSON records carry the exact bytes "
                + "(a '_hex' field whenever a string is not exactly its bytes)"
        ),
        ("--timestamps", "'--timestamps' applies only to text output; every JSON record carries its 'time'"),
    ])
    func aTextOnlyOptionIsRefusedWithJSON(option: String, message: String) {
        #expect(throws: UsageError(message)) {
            try Self.options(["--sim", "--format", "json", option])
        }
    }

    /// `--char-delay` and `--command-delay` make the device's pacing; a device
    /// description's `char-delay` is under the command line's.
    @Test func pacingIsReadFromTheCommandLineOverTheDescriptionFile() throws {
        #expect(try Self.options(["--sim"]).settings.pacing == Pacing())
        let given = try Self.options(["--sim", "--char-delay", "6", "--command-delay", "20"])
        #expect(given.settings.pacing == Pacing(characterDelay: .milliseconds(6), commandDelay: .milliseconds(20)))
        let path = "/tmp/tether-pacing-\(getpid()).json"
        try #"{"char-delay": 5, "command-delay": 50}"#.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let layered = try Self.options(["--sim", "--device", path, "--char-delay", "7"])
        #expect(layered.settings.pacing == Pacing(characterDelay: .milliseconds(7), commandDelay: .milliseconds(50)))
        #expect(throws: UsageError.self) { try Self.options(["--sim", "--char-delay", "-1"]) }
    }

    @Test func timeoutZeroMeansNoDeadline() throws {
        #expect(try Self.options(["--sim", "-t", "0"]).timeout == nil)
    }

    /// The range of each serial setting is SerialConfiguration's: the command line
    /// refuses what `validate()` refuses, with the option's name.
    @Test(arguments: [
        (
            "--baud", "0",
            "The value '0' is invalid for '--baud <rate>': must be a whole number, 1 to 2147483647 baud"
        ),
        (
            "--data-bits", "9",
            "The value '9' is invalid for '--data-bits <bits>'. Please provide one of '5', '6', '7', '8'."
        ),
        (
            "--data-bits", "4",
            "The value '4' is invalid for '--data-bits <bits>'. Please provide one of '5', '6', '7', '8'."
        ),
        ("--stop-bits", "3", "The value '3' is invalid for '--stop-bits <bits>'. Please provide one of '1', '2'."),
        (
            "--parity", "purple",
            "The value 'purple' is invalid for '--parity <parity>'. Please provide one of 'none', 'odd', 'even', 'mark', 'space'."
        ),
    ])
    func aSerialSettingOutOfRangeIsAUsageError(option: String, value: String, message: String) throws {
        #expect(throws: UsageError(message)) { try Self.parse(["--sim", option, value]) }
        var configuration = SerialConfiguration()
        switch option {
        case "--baud": configuration.baudRate = Int(value)!
        case "--data-bits": configuration.dataBits = Int(value)!
        case "--stop-bits": configuration.stopBits = Int(value)!
        default: return
        }
        #expect(throws: SerialError.self) { try configuration.validate() }
    }

    @Test(arguments: [
        (
            ["--timeout", "-1"],
            "The value '-1' is invalid for '--timeout <duration>': must be a duration such as 500ms or 2m, 0 to 24h; a bare number is ms"
        ),
        (["--log="], "The value of '--log <file>' is empty. Please provide a path."),
        (["--urc", ""], "The value of '--urc <prefix>' is empty. Please provide a non-empty prefix."),
        (
            ["--final-ok="],
            "The value of '--final-ok <text>' is empty. Please provide the code's text, e.g. 'FAIL'."
        ),
        (
            ["--notify-pattern", "("],
            "The value '(' is invalid for '--notify-pattern <regex>'. Please provide a valid regular expression."
        ),
        (
            ["--pulse-dtr", "0"],
            "The value '0' is invalid for '--pulse-dtr <duration>': must be a duration such as 500ms or 2m, 1ms or more; a bare number is ms"
        ),
        (["--drop", "2"], "The value '2' is invalid for '--drop <p>': must be a probability, 0 to 1"),
        (
            ["--linger", "60001"],
            "The value '60001' is invalid for '--linger <duration>': must be a duration such as 500ms or 2m, 0 to 1m; a bare number is ms"
        ),
    ])
    func aBadValueNamesItsOption(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Self.parse(["--sim"] + arguments) }
    }

    @Test func aFaultWithoutTheSimulatorIsRefused() {
        #expect(throws: UsageError("'--drop' applies only to '--sim' (a fault of the built-in simulator)")) {
            try Self.options(["--drop", "0.5"], port: "/dev/ttyUSB0")
        }
    }

    @Test func faultsMakeThePlanOfTheSimulator() throws {
        let faults = try Self.options(["--sim", "--latency", "20", "--drop=0.5", "--disconnect-after-lines", "3"])
            .simulatorFaults
        #expect(faults.latency == .milliseconds(20))
        #expect(faults.dropProbability == 0.5)
        #expect(faults.disconnect == .init(trigger: .afterLines(3)))
    }

    @Test func bothDisconnectFaultsAreRefused() {
        #expect(throws: UsageError("Give only one of '--disconnect-after' and '--disconnect-after-lines'")) {
            try Self.options(["--sim", "--disconnect-after", "5", "--disconnect-after-lines", "3"])
        }
    }

    @Test func aDialectOptionForAnotherDialectIsRefusedWhenTheDialectIsMade() throws {
        let options = try Self.options(["--sim", "--urc", "^SYSSTART"])
        #expect(throws: UsageError("'--urc' applies only to '--dialect at' (the dialect is 'line')")) {
            try options.settings.dialect.makeDialect()
        }
        #expect(throws: Never.self) {
            try Self.options(["--sim", "--urc", "^X", "--dialect", "at"]).settings.dialect.makeDialect()
        }
    }

    @Test func profileNeedsTheSimulator() {
        #expect(throws: UsageError("'--profile' applies only to '--sim'")) {
            try Self.options(["--profile", "at-modem"], port: "/dev/ttyUSB0")
        }
    }

    /// `--profile`'s help listed four of the five built-in profiles (not `gps`): it
    /// now lists ``SimulatorProfiles/builtInNames``.
    @Test func profileHelpNamesEveryBuiltInProfile() {
        let help = SimulatorOptions().profile.declaration.help
        #expect(help.contains("(" + SimulatorProfiles.builtInNames.joined(separator: ", ") + ")"))
        #expect(help.contains("gps"))
    }

    /// `tether query --sim -- -h` sends `-h`: `--` ends options.
    @Test func aDoubleDashEndsOptionsSoADashCommandIsSent() throws {
        #expect(!ParsedArguments.asksForHelp(["--sim", "--", "-h"]))
        let arguments = try Self.parse(["--sim", "--", "-h", "--baud"])
        #expect(arguments.positionals == ["-h", "--baud"])
        #expect(arguments[DeviceSettings.baud] == 115_200)
    }

    @Test func aDeviceDescriptionFileIsALayerUnderTheCommandLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tether-cli-\(getpid()).json").path
        try #"{"description": "bench modem", "dialect": "at", "baud": 9600, "urc": ["^SYSSTART"]}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let options = try ConnectionOptions(
            try ParsedArguments(["--sim", "--device", path, "--baud", "19200"], spec: QueryCommand.spec), port: nil)
        #expect(options.settings.configuration.baudRate == 19200)
        #expect(options.settings.dialect.kind?.name == ATDialect.kind.name)
        #expect(options.settings.dialect.settings.unsolicitedPrefixes == ["^SYSSTART"])
    }
}
