import Foundation
import Testing

/// Named devices: `[name]` sections of `$XDG_CONFIG_HOME/tether/config` stand for a port
/// and its settings wherever a port goes (docs/CONFIG.md).
@Suite struct NamedDeviceEndToEndTests {
    /// A configuration folder holding `config` with `text`, for `XDG_CONFIG_HOME`.
    private final class Configuration {
        let folder: TemporaryFolder
        var environment: [String: String] { ["XDG_CONFIG_HOME": folder.path("xdg")] }

        init(_ text: String) throws {
            folder = try TemporaryFolder()
            try FileManager.default.createDirectory(
                atPath: folder.path("xdg/tether"), withIntermediateDirectories: true)
            try text.write(toFile: folder.path("xdg/tether/config"), atomically: true, encoding: .utf8)
        }
    }

    /// `tether query NAME` opens the section's port (a simulator's pty link, through
    /// libserialport) at the section's baud rate.
    @Test func queryByName() throws {
        let configuration = try Configuration("")
        let link = configuration.folder.path("device")
        let simulator = try Subprocess("tether-sim", ["--link", link])
        defer {
            simulator.send(SIGTERM)
            _ = simulator.wait()
        }
        #expect(simulator.waitForOutput(containing: link))
        try """
        # the bench
        [bench-env]
        port = \(link)
        baud = 9600
        description = environment sensor
        """.write(toFile: configuration.folder.path("xdg/tether/config"), atomically: true, encoding: .utf8)
        let result = try Subprocess.run(
            "tether", ["query", "bench-env", "*IDN?", "--format", "json"], environment: configuration.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        let connected = try #require(records.first { $0["type"] as? String == "connected" })
        #expect(connected["port"] as? String == link)
        #expect(connected["settings"] as? String == "9600 8N1")
        let reply = try #require(records.first { $0["type"] as? String == "reply" })
        #expect(reply["lines"] as? [String] == ["TETHER,ENV-1,SIM0001,1.0"])

        let listed = try Subprocess.run("tether", ["list", "--format", "json"], environment: configuration.environment)
        #expect(listed.status == 0, "\(listed.stderr)")
        let named = try JSONLines.parse(listed.stdout).filter { $0["type"] as? String == "named_device" }
        #expect(named.count == 1)
        #expect(named.first?["name"] as? String == "bench-env")
        #expect(named.first?["presence"] as? String == "present")
        #expect(named.first?["description"] as? String == "environment sensor")
    }

    /// Precedence: the command line over `--device FILE` over the section over its own
    /// `device` file; `port = sim:PROFILE` starts the simulator.
    @Test func precedence() throws {
        let configuration = try Configuration("")
        let file = configuration.folder.path("xdg/tether/modem.json")
        try #"{"dialect": "at", "eol": "cr", "baud": 4800}"#.write(
            toFile: file, atomically: true, encoding: .utf8)
        try """
        [modem]
        port = sim:at-modem
        device = modem.json
        baud = 9600
        """.write(toFile: configuration.folder.path("xdg/tether/config"), atomically: true, encoding: .utf8)
        let override = configuration.folder.path("even.json")
        try #"{"baud": 19200}"#.write(toFile: override, atomically: true, encoding: .utf8)

        func settings(_ extra: [String]) throws -> String? {
            let result = try Subprocess.run(
                "tether", ["query", "modem", "AT+CSQ", "--format", "json"] + extra,
                environment: configuration.environment)
            #expect(result.status == 0, "\(result.stderr)")
            let records = try JSONLines.parse(result.stdout)
            // The AT dialect of the section's `device` file: `OK` is the final result code.
            #expect(records.first { $0["type"] as? String == "reply" }?["final"] as? String == "OK")
            return records.first { $0["type"] as? String == "connected" }?["settings"] as? String
        }
        #expect(try settings([]) == "9600 8N1")
        #expect(try settings(["--device", override]) == "19200 8N1")
        #expect(try settings(["--device", override, "--baud", "38400"]) == "38400 8N1")
    }

    /// A name that is neither a file nor a section gets the nearest name, exit 66 as a
    /// missing port; a bad section is named with its file.
    @Test func unknownNamesAndBadSections() throws {
        let configuration = try Configuration(
            """
            [lab-psu]
            port = sim:scpi-psu
            [broken]
            port = sim
            bud = 9600
            """)
        let typo = try Subprocess.run("tether", ["query", "lab-pus", "*IDN?"], environment: configuration.environment)
        #expect(typo.status == 66)
        #expect(typo.stderr == "Error: No port or named device 'lab-pus'; did you mean 'lab-psu'?\n")

        let broken = try Subprocess.run("tether", ["query", "broken", "*IDN?"], environment: configuration.environment)
        #expect(broken.status == 64)
        let file = configuration.folder.path("xdg/tether/config")
        #expect(broken.stderr.hasPrefix("Error: \(file): [broken] bud: unknown setting; did you mean 'baud'?"))

        let run = try Subprocess.run(
            "tether", ["run", "-", "--port", "lab-psu"], stdin: "*IDN?\n", environment: configuration.environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("TETHER,PSU-3610,SIM0001,1.0.0"))

        // A name as run's port and as the first word (tio's `tio NAME`): 'tether run
        // lab-psu checks.txt' said "Unexpected argument 'checks.txt'".
        let checks = configuration.folder.path("checks.txt")
        try "*IDN?\n".write(toFile: checks, atomically: true, encoding: .utf8)
        let positional = try Subprocess.run(
            "tether", ["run", "lab-psu", checks], environment: configuration.environment)
        #expect(positional.status == 0, "\(positional.stderr)")
        #expect(positional.stdout.contains("TETHER,PSU-3610,SIM0001,1.0.0"))
        let connect = try Subprocess.run(
            "tether", ["lab-psu"], stdin: "*IDN?\n", environment: configuration.environment)
        #expect(connect.status == 0, "\(connect.stderr)")
        #expect(connect.stdout.contains("TETHER,PSU-3610,SIM0001,1.0.0"))
    }

    /// A configuration that never ends (`/dev/zero`) grew tether to 2.6 GB; a FIFO
    /// without a writer hung it. Neither is a regular file: refused at once.
    @Test func aConfigurationThatIsNoRegularFileIsRefused() throws {
        let configuration = try Configuration("")
        let file = configuration.folder.path("xdg/tether/config")
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "/dev/zero")
        let zero = try Subprocess.run(
            "tether", ["query", "a", "TEMP?"], timeout: 20, environment: configuration.environment)
        #expect(zero.status == 64)
        #expect(
            zero.stderr.hasPrefix("Error: The configuration file '\(file)' is not a regular file (a FIFO, a device…)"))
        try FileManager.default.removeItem(atPath: file)
        #expect(mkfifo(file, 0o600) == 0)
        let fifo = try Subprocess.run("tether", ["list"], timeout: 20, environment: configuration.environment)
        #expect(fifo.status == 64)
        #expect(fifo.stderr.hasPrefix("Error: The configuration file '\(file)' is not a regular file"))
    }
}
