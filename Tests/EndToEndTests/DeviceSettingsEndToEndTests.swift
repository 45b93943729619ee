import Foundation
import Testing

/// Each device's own dialect and serial settings: `--device FILE` on every device
/// command, and a `tether run` port's `,KEY=VALUE` settings and `device=FILE`.
@Suite struct DeviceSettingsEndToEndTests {
    private static let script = """
        local csq = devices.modem:query("AT+CSQ")
        check(csq[1] == "+CSQ: 20,99", "modem answers")
        check(devices.env:query("*IDN?")[1] == "TETHER,ENV-1,SIM0001,1.0", "sensor answers")
        """

    /// `--dialect` applied to every `--port`, so a script over an environmental sensor
    /// and an AT modem could not work.
    @Test func eachPortTakesItsOwnDialectInline() throws {
        let settings = try connectedSettings(modem: "modem=sim:at-modem,dialect=at,eol=cr,baud=9600")
        #expect(settings == ["modem": "9600 8N1", "env": "115200 8N1"])
    }

    /// The same run with the modem described in a file.
    @Test func eachPortTakesADescriptionFile() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("modem.json")
        try """
        {
          "description": "bench modem",
          "dialect": "at",
          "eol": "cr",
          "urc": ["^SYSSTART"],
          "baud": 9600,
          "parity": "even"
        }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let settings = try connectedSettings(modem: "modem=sim:at-modem,device=\(file),parity=none")
        #expect(settings == ["modem": "9600 8N1", "env": "115200 8N1"])
    }

    /// Runs ``script`` over the modem `--port` given and the env simulator, with
    /// `--dialect line` for both unless a port says otherwise; returns each device's
    /// serial settings from its `connected` record.
    private func connectedSettings(modem port: String) throws -> [String: String] {
        let result = try Subprocess.run(
            "tether",
            ["run", "-", "--lua", "--format", "json", "--dialect", "line", "--port", port, "--port", "env=sim"],
            stdin: Self.script)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let connected = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "connected" }
        return Dictionary(
            uniqueKeysWithValues: connected.map { ($0["device"] as? String ?? "", $0["settings"] as? String ?? "") })
    }

    /// `--device FILE` on `query`; the command line's options override the file.
    @Test func deviceFileOnQuery() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("modem.json")
        try #"{"dialect": "at", "baud": 9600}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try Subprocess.run(
            "tether",
            [
                "query", "--sim", "--profile", "at-modem", "--device", file, "--baud", "19200", "--format", "json",
                "AT+CSQ",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        #expect(records.first { $0["type"] as? String == "connected" }?["settings"] as? String == "19200 8N1")
        let reply = records.first { $0["type"] as? String == "reply" }
        #expect(reply?["lines"] as? [String] == ["+CSQ: 20,99"])
    }

    /// The device file of docs/SCRIPTING.md ("At a glance") was refused by `monitor` (and
    /// `lines`: "Unknown option '--eol'"): settings a command does not take (`eol`, `urc`)
    /// are the device's, and the command uses what applies to it.
    @Test func deviceFileWithSettingsTheCommandDoesNotTake() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("modem.json")
        try #"{ "description": "bench modem", "dialect": "at", "eol": "cr", "urc": ["^SYSSTART"], "baud": 9600 }"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let result = try Subprocess.run(
            "tether",
            ["monitor", "--sim", "--profile", "at-modem", "--device", file, "--duration", "0.3", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        #expect(records.first { $0["type"] as? String == "connected" }?["settings"] as? String == "9600 8N1")
    }

    /// A description file is strict and its mistakes name the file, the key and what
    /// was expected.
    @Test(arguments: [
        (
            #"{"dialect": "at", "baud": 9600,}"#,
            "line 1, column 31: not valid JSON: a comma must be followed by another value"
        ),
        (#"{"dialekt": "at"}"#, "dialekt: unknown setting; did you mean 'dialect'?"),
        (
            #"{"baud": "fast"}"#,
            "baud: The value 'fast' is invalid for '--baud <rate>': must be a whole number, 1 to 2147483647 baud"
        ),
        (#"{"urc": ["^A", {"x": 1}]}"#, "urc[1]: expected a string, got an object"),
        (#"{"urc": ["^A", true]}"#, "urc[1]: expected a string, got a boolean"),
        (#"{"urc": null}"#, "urc: expected a string, a number, true/false or a list, got null"),
        (#"{"description": 5}"#, "description: expected a string, got a number"),
        (#"{"check-errors": "yes"}"#, "check-errors: expected true or false"),
        (#"{"baud": [1, 2]}"#, "baud: expected one value, got 2"),
        (#"["at"]"#, #"expected an object of settings, e.g. {"dialect": "at"}, got a list"#),
    ])
    func descriptionMistakesAreNamed(text: String, message: String) throws {
        let folder = try TemporaryFolder()
        let file = folder.path("dev.json")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try Subprocess.run("tether", ["query", "--sim", "--device", file, "x"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: \(file): \(message)"), "\(result.stderr)")
    }

    /// Inline settings are checked like options.
    @Test(arguments: [
        (
            "modem=sim:at-modem,bud=9600",
            "'--port modem=sim:at-modem,bud=9600': bud: unknown setting; did you mean 'baud'?"
        ),
        ("modem=sim,baud", "The setting 'baud' in '--port modem=sim,baud' is not KEY=VALUE"),
        (
            "modem=sim,parity=bad",
            "'--port modem=sim,parity=bad': parity: The value 'bad' is invalid for '--parity <parity>'"
        ),
    ])
    func inlineMistakesAreNamed(port: String, message: String) throws {
        let result = try Subprocess.run("tether", ["run", "-", "--lua", "--port", port], stdin: "print(1)\n")
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: \(message)"), "\(result.stderr)")
    }
}
