import TetherCommandLine
import TetherDeviceSettings
import TetherModel
import TetherSerial
import TetherSimulator

// The option groups of the commands that open a device. Each command lists the groups
// it takes (its ``CommandSpec``), so an option added here reaches the commands that
// list its group and no other; `--help` shows the common groups, `--help-all` every one.

/// `--sim` and `--profile`: the built-in simulator instead of a port.
package struct SimulatorOptions: FieldOptionGroup {
    package init() {}

    package static let title = "SIMULATOR OPTIONS"

    package let sim = Flag(
        "--sim", help: "Start the built-in device simulator in-process and use it instead of <port>.")
    package let profile = Option<String?>(
        "--profile", value: "name|file",
        help: """
            With --sim: the simulated device, a built-in profile
            (\(SimulatorProfile.names.joined(separator: ", ")))
            or a profile file (docs/PROFILES.md); it also sets the
            default --dialect.
            """, defaultHelp: SimulatorProfile.defaultName, choices: SimulatorProfile.names,
        parse: Parse.nonEmpty(InvalidValue("Please provide a built-in profile's name or a profile file's path.")))

    package static func validate(_ arguments: ParsedArguments) throws(UsageError) {
        let given = arguments[Self.self]
        if given.profile != nil, !given.sim { throw UsageError("'--profile' applies only to '--sim'") }
    }
}

/// Which port, by identity or by file, and waiting for it (docs/HARDWARE.md).
package struct PortOptions: FieldOptionGroup {
    package init() {}

    package static let title = "PORT OPTIONS"

    package let match = Option<PortMatch?>(
        "--match", "-m", value: "id",
        help: """
            Open the one port with this identity instead of <port>: VID:PID[:SERIAL]
            in hex, e.g. 0403:6001:A1B2C3, or part of its product or manufacturer
            name (see 'tether list'). Looked up again when reconnecting.
            """
    ) { text throws(InvalidValue) in
        do throws(PortMatch.ParseError) {
            return try PortMatch(parsing: text)
        } catch {
            throw .message(error.description)
        }
    }
    package let wait = Flag("--wait", help: "Wait for a port that does not exist yet (or a --match that finds none).")
    package let waitTimeout = Option<Duration?>(
        "--wait-timeout", value: "duration",
        help: "Wait at most this long for the port (implies --wait); then exit 66.",
        range: .durations(.milliseconds(1), bare: .seconds))
    package let device = Option<String?>(
        "--device", value: "file",
        help: """
            A device description file (docs/DIALECTS.md): dialect, line end,
            patterns and serial settings; options given here override it.
            """, parse: Parse.nonEmpty(InvalidValue("Please provide a device description file's path.")))
}

/// The serial settings: baud rate, data bits, parity, stop bits, flow control.
package enum SerialOptions: OptionGroup {
    package static let title = "SERIAL OPTIONS"
    package static var options: [OptionDeclaration] { DeviceSettings.serialOptions }
}

/// Pauses between the bytes and commands sent, and the input waiting at open.
package enum PacingOptions: OptionGroup {
    package static let title = "PACING AND INPUT OPTIONS"
    package static let isCommon = false
    package static var options: [OptionDeclaration] { DeviceSettings.pacingOptions + DeviceSettings.inputOptions }
}

/// A reset sequence after each open and RS-485 direction control (docs/HARDWARE.md):
/// device options, so device files and `run`'s inline settings give them too.
package enum LineControlOptions: OptionGroup {
    package static let title = "LINE CONTROL OPTIONS"
    package static let isCommon = false
    package static var options: [OptionDeclaration] { DeviceSettings.lineOptions }
}

/// The firmware's ELF file, for crash reports' addresses (docs/FIRMWARE.md): a device
/// option, so device files and `run`'s inline settings give it too.
package enum FirmwareOptions: OptionGroup {
    package static let title = "FIRMWARE OPTIONS"
    package static var options: [OptionDeclaration] { DeviceSettings.firmwareOptions }
}

/// How a command is sent and how long its reply is waited for: the options of the
/// commands that send (not `monitor`).
package enum ReplyOptions: OptionGroup {
    package static let title = "REPLY OPTIONS"

    package static let timeout = Option<Duration>(
        "--timeout", "-t", value: "duration",
        help: "Wait at most this long for each reply; 0 waits without a deadline\n(a hang-up still ends the wait).",
        default: .seconds(1), range: .durations(.zero, to: .seconds(86_400), bare: .milliseconds, warnsBelow: 10))

    package static var options: [OptionDeclaration] { [timeout.declaration, DialectOptions.eol.declaration] }
}

/// How replies are matched beyond the dialect's defaults: for the commands that send.
package enum ReplyTuningOptions: OptionGroup {
    package static let title = "REPLY TUNING OPTIONS"
    package static let isCommon = false
    package static var options: [OptionDeclaration] {
        [
            DialectOptions.errorPattern.declaration, DialectOptions.checkErrors.declaration,
            DialectOptions.noUnsolicited.declaration, DialectOptions.listen.declaration,
            DialectOptions.promptWait.declaration,
        ]
    }
}

/// The dialect and what it takes for a notification and a prompt.
package enum DialectGroup: OptionGroup {
    package static let title = "DIALECT OPTIONS"
    package static var options: [OptionDeclaration] {
        [
            DialectOptions.dialect.declaration, DialectOptions.prompt.declaration,
            DialectOptions.notifyPattern.declaration,
        ]
    }
}

/// The dialect options for particular devices: vendor result codes, payloads, prompts
/// that change, consoles without echo.
package enum DialectTuningOptions: OptionGroup {
    package static let title = "DIALECT TUNING OPTIONS"
    package static let isCommon = false
    package static var options: [OptionDeclaration] {
        [
            DialectOptions.urc.declaration, DialectOptions.finalOK.declaration, DialectOptions.finalError.declaration,
            DialectOptions.payloadHeader.declaration, DialectOptions.promptRegex.declaration,
            DialectOptions.noEcho.declaration,
        ]
    }
}

/// DTR and RTS on open, a reset pulse or a break after it, and settings the port must
/// have (docs/HARDWARE.md).
package struct PortControlOptions: FieldOptionGroup {
    package init() {}

    package static let title = "PORT CONTROL OPTIONS"
    package static let isCommon = false

    package let dtr = Option<SerialPort.LineControl>(
        "--dtr", value: "mode",
        help: "DTR on open: keep (leave it, and keep it on close: no board reset), on\nor off.", default: .keep,
        parse: Parse.choice(SerialPort.LineControl.self))
    package let rts = Option<SerialPort.LineControl>(
        "--rts", value: "mode", help: "RTS on open: keep, on or off.", default: .keep,
        parse: Parse.choice(SerialPort.LineControl.self))
    package let pulseDTR = Option<Int?>(
        "--pulse-dtr", value: "duration",
        help: "After each open, drop DTR this long, then raise it (reset\nsequence of Arduino-style boards).",
        range: .milliseconds(atLeast: 1, warnsBelow: 10))
    package let breakLength = Option<Int?>(
        "--break", value: "duration", help: "After each open, send a break this long.",
        range: .milliseconds(atLeast: 1, warnsBelow: 10))
    package let strictSettings = Flag(
        "--strict-settings", help: "Exit (78) when the port does not have a serial setting as asked.")
}

/// `--no-reconnect`: for the commands that reopen a port that went away.
package struct ReconnectOptions: FieldOptionGroup {
    package init() {}

    package static let title = "RECONNECT OPTIONS"

    package let noReconnect = Flag(
        "--no-reconnect",
        help: "When the device goes away, exit (74) instead of waiting for it to come\nback and reopening it.")
}

/// The simulator's fault options, as `tether-sim` takes them (see `tether-sim --help`),
/// but `--reappear-after`: a simulator of `--sim` ends with tether, and so does its
/// device, so it cannot come back.
package enum SimulatorFaultOptions: OptionGroup {
    package static let title = "SIMULATOR FAULT OPTIONS (with --sim)"
    package static let isCommon = false
    package static var options: [OptionDeclaration] {
        FaultOptions.all.filter { $0.key != FaultOptions.reappearAfter.declaration.key }
    }
}
