import Foundation
import Testing
import TetherSimulator

/// Bad input found by a first-time user's trial, each with the exact command that
/// broke: a clear message and exit 64/65 instead of a crash or a wrong action.
@Suite struct FreshUserRegressionTests {
    /// Crashed with "Overflow in multiplication" (exit 132).
    @Test(arguments: [
        ["monitor", "--sim", "--duration", "99999999999999999999999", "--count", "1"],
        ["monitor", "/dev/ttyUSB9", "--wait-timeout", "1e19"],
    ])
    func hugeDurationsAreUsageErrors(arguments: [String]) throws {
        let result = try Subprocess.run("tether", arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: The value '"))
        #expect(!result.stderr.contains("Fatal error"))
    }

    /// Sent two commands in one write whose second reply then looked like a stray
    /// line. (An empty command is a command now: the line end alone, docs/QUERY.md,
    /// "Escapes in commands"; `BytesEndToEndTests` checks it.)
    @Test(arguments: ["TEMP?\nHUM?", "A\r"])
    func commandsThatCannotBeSentAsOneAreRefused(command: String) throws {
        let result = try Subprocess.run("tether", ["query", "--sim", command])
        #expect(result.status == 64, "\(result.stdout)")
        #expect(result.stderr.hasPrefix("Error: The command '"))
        #expect(result.stdout.isEmpty)
    }

    /// `query /dev/ttyS0 --sim x` sent the port path to the simulator as a command.
    @Test func portAndSimTogetherAreRefused() throws {
        let result = try Subprocess.run("tether", ["query", "/dev/null", "--sim", "x"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: Give either <port> or '--sim'/'--match', not both (got '/dev/null')"))
    }

    /// `--sim --sim` was taken as one `--sim`, while `--baud 1 --baud 2` is refused.
    @Test func aFlagGivenTwiceIsRefused() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--sim", "*IDN?"])
        #expect(result.status == 64)
        #expect(result.stderr == "Error: '--sim' may be given only once (see 'tether query --help')\n")
        #expect(result.stdout.isEmpty)
    }

    /// The built-in simulator ignores empty and blank lines (docs/SIMULATOR.md,
    /// "`--sim`: the simulator in-process"): the empty command and a blank one time out.
    @Test(arguments: ["", " \t "])
    func theSimulatorIgnoresEmptyAndBlankLines(command: String) throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--timeout", "300", command])
        #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("no reply within 300 ms"), "\(result.stdout)")
    }

    /// `tether run ''` said "Error: : no such file": an empty script, port, profile,
    /// device file or file to send is named as empty.
    @Test(arguments: [
        ("tether", ["run", "", "--sim"], "The script path is empty"),
        ("tether", ["run", "checks.txt", "--port", ""], "The value of '--port <port>' is empty"),
        ("tether", ["query", "--sim", "--profile", "", "x"], "The value of '--profile <name|file>' is empty"),
        ("tether", ["query", "--sim", "--device", "", "x"], "The value of '--device <file>' is empty"),
        ("tether", ["query", "", "x"], "The port '' is empty"),
        ("tether", ["send", "--sim", ""], "A file path is empty"),
        ("tether-sim", ["--profile", ""], "The value of '--profile <name|file>' is empty"),
    ])
    func anEmptyPathIsNamedAsEmpty(program: String, arguments: [String], message: String) throws {
        let result = try Subprocess.run(program, arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: \(message)"), "\(result.stderr)")
    }

    /// 300 random bytes given to `run` were sent to the device line by line.
    @Test func binaryScriptIsAScriptError() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("garbage.txt")
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) } + [0]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try Subprocess.run("tether", ["run", path, "--sim"])
        #expect(result.status == 65)
        #expect(result.stderr == "Error: \(path): not a text file (NUL bytes or invalid UTF-8)\n")
    }

    /// Two names for one port ended in "port busy (in use by tether (pid <itself>))".
    @Test func samePortTwiceInARunIsAUsageError() throws {
        let folder = try TemporaryFolder()
        let script = folder.path("ab.lua")
        try "print(1)\n".write(toFile: script, atomically: true, encoding: .utf8)
        let link = folder.path("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        let result = try Subprocess.run("tether", ["run", script, "--port", "a=/dev/null", "--port", "b=\(link)"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: 'a' and 'b' are the same port (/dev/null)"))
    }

    /// `tether lines --help` listed dialect options that do nothing there.
    @Test func linesHelpListsOnlyWhatLinesUses() throws {
        let help = try Subprocess.run("tether", ["lines", "--help"])
        #expect(help.status == 0)
        for option in ["--dialect", "--check-errors", "--prompt", "--sim", "--timeout"] {
            #expect(!help.stdout.contains(option), "lines --help lists \(option)")
        }
        for option in ["--match", "--dtr", "--rts", "--format", "--log"] {
            #expect(help.stdout.contains(option), "lines --help leaves out \(option)")
        }
    }

    /// The example in `tether run --help` named a device the script does not use.
    @Test func runHelpExampleRuns() throws {
        let help = try Subprocess.run("tether", ["run", "--help"])
        let line = try #require(help.stdout.split(separator: "\n").first { $0.contains("examples/alarm.lua") })
        let arguments = line.split(separator: " ").dropFirst().map(String.init)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let withPath = arguments.map { $0 == "examples/alarm.lua" ? root.appendingPathComponent($0).path : $0 }
        let result = try Subprocess.run("tether", withPath)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    }

    /// `query --sim --dialect at -t 300 --format json AT` showed only the timeout; the
    /// simulator's `ERR -113` line (not an AT final result code) was thrown away.
    @Test func partOfAReplyIsShownAtItsTimeout() throws {
        let result = try Subprocess.run(
            "tether", ["query", "--sim", "--dialect", "at", "-t", "300", "--format", "json", "AT"])
        #expect(result.status == 75)
        let objects = try JSONLines.parse(result.stdout)
        let types = objects.compactMap { $0["type"] as? String }
        #expect(types.suffix(2) == ["partial_reply", "timeout"])
        let partial = try #require(objects.first { $0["type"] as? String == "partial_reply" })
        #expect(partial["lines"] as? [String] == ["ERR -113,\"Undefined header\""])
    }

    /// `--wait` printed nothing while it waited: a user could not tell it from a hang.
    @Test func waitSaysWhatItWaitsFor() throws {
        let result = try Subprocess.run("tether", ["monitor", "/tmp/tether-no-such-port", "--wait-timeout", "0.5"])
        #expect(result.status == 66)
        #expect(result.stderr.hasPrefix("waiting for /tmp/tether-no-such-port to appear (Ctrl-C quits)\n"))
    }

    /// The wait is a record of the view, not a line printed beside it: JSON gets a
    /// `waiting` record on stdout, and stderr only the final error.
    @Test func waitIsAJSONRecordWithFormatJSON() throws {
        let result = try Subprocess.run(
            "tether", ["monitor", "/tmp/tether-no-such-port", "--wait-timeout", "0.5", "--format", "json"])
        #expect(result.status == 66)
        let objects = try JSONLines.parse(result.stdout)
        #expect(objects.count == 1)
        #expect(objects.first?["type"] as? String == "waiting")
        #expect(objects.first?["for"] as? String == "/tmp/tether-no-such-port")
        #expect(result.stderr == "Error: /tmp/tether-no-such-port: no such device (waited 0.5 s)\n")
    }

    /// After a disconnect, `query` left the commands it never sent out of the output
    /// (`query L 'SETP?' 'SETP 20' 'SETP?' 'HUM?'` against a device gone after one line).
    @Test func everyCommandIsAccountedForAfterADisconnect() throws {
        let rules = [
            ScriptedDevice.Rule(
                on: "SETP?\n", send: [ScriptedDevice.Chunk("22.0\r\n")], hangUpAfter: .milliseconds(300))
        ]
        let simulator = try Simulator(device: ScriptedDevice(rules: rules))
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["query", simulator.devicePath, "--format", "json", "SETP?", "SETP 20", "SETP?", "HUM?"])
        #expect(result.status == 74)
        let outcomes = try JSONLines.parse(result.stdout).filter {
            ["reply", "timeout", "failed"].contains($0["type"] as? String)
        }
        #expect(outcomes.compactMap { $0["command"] as? String } == ["SETP?", "SETP 20", "SETP?", "HUM?"])
        #expect(outcomes.compactMap { $0["type"] as? String } == ["reply", "failed", "failed", "failed"])
    }

    /// `run --sim --profile scpi-psu` ran the default `env` device without a word.
    @Test func runUsesTheSimulatorProfile() throws {
        let result = try Subprocess.run(
            "tether", ["run", "-", "--sim", "--profile", "scpi-psu"], stdin: "*IDN? =~ ^TETHER,PSU-\n")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// `query --sim $'caf\xe9'` put `63 61 66 ef bf bd` on the wire: Swift had repaired
    /// the argument with U+FFFD.
    @Test func argumentThatIsNotUTF8IsRefused() throws {
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let result = try Subprocess.run(
            path: "/bin/sh", ["-c", #"exec "$0" query --sim "$(printf 'caf\351')""#, tether])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: The argument 'caf\\xe9' is not valid UTF-8"))
    }

    /// `tether query $'/tmp/\xff' x` said only that commands are sent as UTF-8 text.
    @Test func portPathThatIsNotUTF8IsRefusedAsAPath() throws {
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let result = try Subprocess.run(path: "/bin/sh", ["-c", #"exec "$0" query "$(printf '/tmp/\377')" x"#, tether])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: The argument '/tmp/\\xff' is not valid UTF-8; port paths and commands must be UTF-8 text"))
    }

    /// `--baud 4294967296` was `invalid serial configuration: baud rate 4294967296 is
    /// too large`, unlike every other bad baud rate.
    @Test func baudRateTooLargeIsAnInvalidValue() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--baud", "4294967296", "x"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: The value '4294967296' is invalid for '--baud <rate>': must be a whole number, 1 to 2147483647 baud"
            ))
    }

    /// `query` exits as soon as the last reply is in, so a notification sent right
    /// after it (`ALARM:TEST` → `OK`, then `!ALARM test`) is shown with `--linger`.
    @Test func notificationRightAfterTheLastReplyIsShownWithLinger() throws {
        let rules = [
            ScriptedDevice.Rule(
                on: "ALARM:TEST\n",
                send: [
                    ScriptedDevice.Chunk("OK\r\n"), ScriptedDevice.Chunk("!ALARM test\r\n", after: .milliseconds(20)),
                ])
        ]
        let simulator = try Simulator(device: ScriptedDevice(rules: rules))
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["query", simulator.devicePath, "--notify-pattern", "^!", "--linger", "50", "ALARM:TEST"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("!ALARM test\n"), "\(result.stdout)")
    }

    /// `connect --format json` with a command already waiting on standard input wrote
    /// `sent` before `connected` in about one run in ten: commands now wait for the
    /// device to start, so `connected` is always the first record.
    @Test func connectedComesBeforeTheFirstCommand() throws {
        for _ in 0..<5 {
            let result = try Subprocess.run(
                "tether", ["connect", "--sim", "--format", "json"], stdin: "*IDN?\n", timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
            let types = try JSONLines.parse(result.stdout).compactMap { $0["type"] as? String }
            #expect(types.first == "connected", "\(types)")
            #expect(types.contains("reply"), "\(types)")
        }
    }
}
