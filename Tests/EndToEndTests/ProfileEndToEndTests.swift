import Foundation
import Testing

/// `tether … --sim --profile <each built-in>` and `tether-sim --profile/--list-profiles`
/// through the built executables: the profile's dialect is the default, in text and JSON.
@Suite struct ProfileEndToEndTests {
    private func objects(_ result: Subprocess.Result, type: String) throws -> [[String: Any]] {
        try JSONLines.parse(result.stdout).filter { $0["type"] as? String == type }
    }

    private func query(_ profile: String, _ arguments: [String]) throws -> Subprocess.Result {
        try Subprocess.run("tether", ["query", "--sim", "--profile", profile, "--timeout", "3000"] + arguments)
    }

    @Test func atModemInText() throws {
        let result = try query("at-modem", ["AT+CSQ", "AT+CREG?", "AT+CMEE=7"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("AT+CSQ → +CSQ: 20,99\n"), "\(result.stdout)")
        #expect(result.stdout.contains("AT+CREG? → +CREG: 0,1\n"), "\(result.stdout)")
        #expect(result.stdout.contains("AT+CMEE=7 ✗ +CME ERROR: 3 (operation not allowed)"), "\(result.stdout)")
    }

    @Test func atModemInJSON() throws {
        let result = try query("at-modem", ["--format", "json", "ATE0", "AT+CGMI", "AT+BOGUS"])
        #expect(result.status == 1, "\(result.stderr)")
        let replies = try objects(result, type: "reply")
        #expect(replies.map { $0["command"] as? String } == ["ATE0", "AT+CGMI", "AT+BOGUS"])
        #expect(replies.map { $0["lines"] as? [String] } == [[], ["TETHER"], []])
        #expect(replies.map { $0["final"] as? String } == ["OK", "OK", "+CME ERROR: 4"])
        #expect(replies.map { $0["error"] as? Bool } == [false, false, true])
    }

    @Test func atModemURCReachesMonitor() throws {
        let result = try Subprocess.run(
            "tether", ["monitor", "--sim", "--profile", "at-modem", "--count", "1", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let notifications = try objects(result, type: "notification")
        #expect(notifications.map { $0["line"] as? String } == ["+CREG: 1"])
    }

    @Test func scpiSupplyInText() throws {
        let result = try query("scpi-psu", ["*IDN?", "VOLT 5", "VOLT?", "VOLT?;CURR?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("*IDN? → TETHER,PSU-3610,SIM0001,1.0.0"), "\(result.stdout)")
        #expect(result.stdout.contains("VOLT? → 5.000000  ("), "\(result.stdout)")
        #expect(result.stdout.contains("VOLT?;CURR? → 5.000000;1.000000  ("), "\(result.stdout)")
    }

    @Test func scpiErrorQueueThroughCheckErrors() throws {
        let result = try query("scpi-psu", ["--check-errors", "--format", "json", "VOLT 99", "VOLT 2", "*IDN?"])
        #expect(result.status == 1, "\(result.stderr)")
        let replies = try objects(result, type: "reply")
        #expect(replies.map { $0["command"] as? String } == ["VOLT 99", "VOLT 2", "*IDN?"])
        #expect(replies.map { $0["error"] as? Bool } == [true, false, false])
        #expect(replies.first?["lines"] as? [String] == ["-222,\"Data out of range\""])
        let identity = try #require(replies.last?["identity"] as? [String: Any])
        #expect(identity["model"] as? String == "PSU-3610")
    }

    @Test func promptConsoleInTextAndJSON() throws {
        let text = try query("prompt-console", ["version", "boot"])
        #expect(text.status == 1, "\(text.stderr)")
        #expect(text.stdout.contains("version → TBoot 2024.04-sim (tether simulator)\n"), "\(text.stdout)")
        #expect(text.stdout.contains("boot ✗ Unknown command 'boot' - try 'help'"), "\(text.stdout)")
        let json = try query("prompt-console", ["--format", "json", "setenv bootdelay 7", "printenv"])
        #expect(json.status == 0, "\(json.stderr)")
        let lines = try objects(json, type: "reply").last?["lines"] as? [String]
        #expect(lines?.prefix(3) == ["baudrate=115200", "bootcmd=run distro_bootcmd", "bootdelay=7"])
        #expect(lines?.last == "Environment size: 112/8188 bytes")
    }

    @Test func envIsTheDefaultProfile() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--format", "json", "*IDN?", "SETP 99"])
        #expect(result.status == 1, "\(result.stderr)")
        let replies = try objects(result, type: "reply")
        #expect(
            replies.map { $0["lines"] as? [String] } == [
                ["TETHER,ENV-1,SIM0001,1.0"], ["ERR -222,\"Data out of range\""],
            ])
        #expect(replies.map { $0["error"] as? Bool } == [false, true])
    }

    @Test func aProfileFileServesItsDevice() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("lamp.json")
        try Data(
            #"{"dialect": "line", "properties": [{"name": "on", "type": "bool", "initial": false, "text": ["off", "on"]}], "commands": [{"match": "LAMP?", "reply": "{on}"}, {"regex": "LAMP (.+)", "set": {"on": "{1}"}, "reply": "OK"}], "errors": {"reply": "ERR {code}"}}"#
                .utf8
        ).write(to: URL(fileURLWithPath: path))
        let result = try query(path, ["LAMP on", "LAMP?", "LAMP dim"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("LAMP? → on  ("), "\(result.stdout)")
        #expect(result.stdout.contains("LAMP dim ✗ ERR -104"), "\(result.stdout)")
    }

    @Test func aBadProfileIsAUsageErrorForTether() throws {
        let result = try query("toaster", ["X"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error: Invalid simulator profile: toaster: no built-in profile"))
    }

    @Test func tetherSimRejectsABadProfileWithExit65() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("bad.json")
        try Data(#"{"dialect": "line", "commands": [{"match": "V?", "reply": "{volts}"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let result = try Subprocess.run("tether-sim", ["--profile", path])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix("Error: \(path): commands[0].reply: unknown property 'volts' in '{volts}'"),
            "\(result.stderr)")
    }

    @Test func tetherSimServesAProfileByName() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("modem")
        let simulator = try Subprocess("tether-sim", ["--profile", "at-modem", "--link", link])
        defer {
            simulator.send(SIGTERM)
            _ = simulator.wait()
        }
        #expect(simulator.waitForOutput(containing: "link: \(link)"))
        let result = try Subprocess.run("tether", ["query", link, "--dialect", "at", "AT+CGMM"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("AT+CGMM → SIM-M1\n"), "\(result.stdout)")
    }

    @Test func tetherSimListsTheBuiltInProfiles() throws {
        let result = try Subprocess.run("tether-sim", ["--list-profiles"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").map {
            $0.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        }
        #expect(rows.map { $0.first.map(String.init) } == ["at-modem", "env", "gps", "prompt-console", "scpi-psu"])
        #expect(rows.map { $0.dropFirst().first.map(String.init) } == ["at", "line", "nmea", "prompt", "scpi"])
        #expect(rows.allSatisfy { $0.count == 3 })
    }
}
