import Foundation
import Testing
import TetherSimulator

/// `tether run` driven as a user would, through the built CLI and the pty simulator.
@Suite struct RunEndToEndTests {
    /// The package's root, for the examples.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func write(_ text: String, named name: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func queryFileWithPassingLinesExitsZero() throws {
        let folder = try TemporaryFolder()
        let file = try write(
            "# check\n*IDN? =~ ^TETHER,ENV-1\nSETP 25 == OK\nSETP? == 25.0\n", named: "ok.txt", in: folder)
        let result = try Subprocess.run("tether", ["run", file, "--sim", "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let objects = try JSONLines.parse(result.stdout)
        let checks = objects.filter { $0["type"] as? String == "check" }
        #expect(checks.map { $0["status"] as? String } == ["passed", "passed", "passed"])
        #expect(checks.map { $0["line"] as? Int } == [2, 3, 4])
        #expect(checks.first?["description"] as? String == "*IDN? =~ ^TETHER,ENV-1")
        #expect(checks.first?["actual"] as? [String] == ["TETHER,ENV-1,SIM0001,1.0"])
        let summary = try #require(objects.last)
        #expect(summary["type"] as? String == "summary")
        #expect(summary["passed"] as? Int == 3)
        #expect(summary["failed"] as? Int == 0)
        #expect(summary["outcome"] as? String == "passed")
        #expect(summary["duration_ms"] is Int)
    }

    @Test func queryFileWithAFailingLineExitsOne() throws {
        let folder = try TemporaryFolder()
        let file = try write("*IDN?\nSETP? == 25.0\nSETP 99\n", named: "bad.txt", in: folder)
        let result = try Subprocess.run("tether", ["run", file, "--sim"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL    \(file):2  SETP? == 25.0  (got 22.0)"), "\(result.stdout)")
        #expect(result.stdout.contains("FAIL    \(file):3  SETP 99  (got ERR -222,\"Data out of range\"; error reply)"))
        #expect(result.stdout.contains("summary: 1 passed, 2 failed, 0 timed out, 0 not run"))
    }

    @Test func scriptFromStandardInput() throws {
        let result = try Subprocess.run("tether", ["run", "-", "--sim"], stdin: "*IDN?\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("PASS    stdin:1  *IDN?"))
    }

    @Test func luaFromStandardInputWithTheLuaFlag() throws {
        let result = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--sim"], stdin: "check(device.query('*IDN?')[1]:find('TETHER'), 'id')\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("PASS    stdin:1  id"))
    }

    @Test func badQueryLineIsAScriptErrorBeforeAnythingIsSent() throws {
        let folder = try TemporaryFolder()
        let file = try write("*IDN?\nTEMP? =~ ([\n", named: "regex.txt", in: folder)
        let result = try Subprocess.run("tether", ["run", file, "--port", "/dev/ttyNOPE42"])
        #expect(result.status == 65)
        #expect(result.stderr == "Error: \(file):2: '([' is not a valid regular expression\n")
        #expect(result.stdout.isEmpty)
    }

    /// `tether run /dev/zero --sim` grew to 2 GB in 12 s with no message: a script is
    /// read up to 16 MiB, and a longer one (or an endless stream) is a script error.
    @Test func anEndlessScriptIsRefusedAtItsBound() throws {
        let zero = try Subprocess.run("tether", ["run", "/dev/zero", "--sim"], timeout: 30)
        #expect(zero.status == 65, "\(zero.stderr)")
        #expect(zero.stderr == "Error: /dev/zero: longer than 16 MiB, the most a script may hold\n")
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let stream = try Subprocess.run(
            path: "/bin/sh", ["-c", "yes '# a comment line' | '\(tether)' run - --sim"], timeout: 30)
        #expect(stream.status == 65, "\(stream.stderr)")
        #expect(stream.stderr == "Error: stdin: longer than 16 MiB, the most a script may hold\n")
    }

    /// With notifications coming faster than an `on()` handler ran, `sleep()` never
    /// returned (a 15 s script ran 105 s, then printed for 9 more minutes): it pumped
    /// events that arrived after its deadline, into an unbounded inbox. Here 100 000
    /// lines at 20 000/s meet a 2 ms handler (200 s of handling): `sleep(500)` returns
    /// once the events that arrived in its 500 ms are handled (those taken while it
    /// slept, and at most the inbox's 1024 waiting at the deadline), the end of the
    /// script handles at most another 1024, and the run ends.
    @Test func sleepReturnsWhileNotificationsOutrunTheHandler() async throws {
        let script = """
            local handled = 0
            device.on("^!BURST", function()
              handled = handled + 1
              local t = os.clock() + 0.002
              while os.clock() < t do end
            end)
            sleep(500)
            -- during the 500 ms at most 250 ran (2 ms each), then the events waiting at
            -- the deadline: at most the inbox's 1024
            check(handled > 0 and handled <= 250 + 1024, "handled " .. handled)
            """
        let result = try await Subprocess.runDetached(
            "tether", ["run", "-", "--lua", "--sim", "--burst", "100000@20000", "--format", "json"], stdin: script,
            timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        #expect(records.last?["outcome"] as? String == "passed")
        let check = records.first { $0["type"] as? String == "check" }
        #expect(check?["status"] as? String == "passed", "\(check ?? [:])")
    }

    @Test func luaSyntaxErrorHasFileAndLine() throws {
        let folder = try TemporaryFolder()
        let file = try write("local a = 1\nif a then\n", named: "syntax.lua", in: folder)
        let result = try Subprocess.run("tether", ["run", file, "--sim"])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("Error: \(file):3: 'end' expected"), "\(result.stderr)")
    }

    @Test func luaRuntimeErrorHasFileAndLine() throws {
        let folder = try TemporaryFolder()
        let file = try write(
            "device.query('*IDN?')\nlocal reply = nil\nprint(reply[1])\n", named: "runtime.lua", in: folder)
        let result = try Subprocess.run("tether", ["run", file, "--sim", "--format", "json"])
        #expect(result.status == 65)
        let objects = try JSONLines.parse(result.stdout)
        let problem = try #require(objects.first { $0["type"] as? String == "script_error" })
        #expect(problem["file"] as? String == file)
        #expect(problem["line"] as? Int == 3)
        #expect((problem["message"] as? String)?.hasPrefix("\(file):3: attempt to index a nil value") == true)
        #expect(objects.last?["outcome"] as? String == "script_error")
    }

    @Test func unknownDeviceNameIsAScriptError() throws {
        let folder = try TemporaryFolder()
        let file = try write(
            "devices.chamber.query('*IDN?')\ndevices.load.send('OFF')\n", named: "names.lua", in: folder)
        let result = try Subprocess.run("tether", ["run", file, "--port", "chamber=sim"])
        #expect(result.status == 65)
        #expect(
            result.stderr
                == "Error: \(file):2: unknown device 'load' (this run has: chamber; name one with --port load=PATH)\n")
    }

    /// A step that times out and is not handled: exit 75, the step reported as
    /// TIMEOUT.
    @Test func unhandledTimeoutExitsSeventyFive() throws {
        let device = try Simulator(device: ScriptedDevice())
        defer { device.stop() }
        let folder = try TemporaryFolder()
        let file = try write("local reply = device.query('AT', 300)\n", named: "timeout.lua", in: folder)
        let result = try Subprocess.run("tether", ["run", file, "--port", device.devicePath])
        #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("AT ✗ no reply within 300 ms"))
        #expect(result.stdout.contains("1 unhandled"))
    }

    @Test func dryRunOpensNoPort() throws {
        let folder = try TemporaryFolder()
        let file = try write("devices.psu.query('*IDN?')\n", named: "dry.lua", in: folder)
        let result = try Subprocess.run("tether", ["run", file, "--port", "psu=/dev/ttyNOPE42", "--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("ok"))
        let wrong = try Subprocess.run("tether", ["run", file, "--port", "load=/dev/ttyNOPE42", "--dry-run"])
        #expect(wrong.status == 65)
        #expect(wrong.stderr.contains("\(file):1: unknown device 'psu'"))
    }

    @Test func twoSimulatedDevicesCoordinatedByAHandler() throws {
        let result = try Subprocess.run(
            "tether",
            [
                "run", Self.root.appendingPathComponent("examples/alarm.lua").path, "--port", "chamber=sim",
                "--port", "cooler=sim", "--format", "json",
            ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let objects = try JSONLines.parse(result.stdout)
        let coolerCommands = objects.filter { $0["type"] as? String == "sent" && $0["device"] as? String == "cooler" }
            .compactMap { $0["command"] as? String }
        #expect(coolerCommands == ["SETP 5", "SETP?"])
        let emitted = try #require(objects.first { $0["type"] as? String == "emit" })
        #expect((emitted["data"] as? [String: Any])?["alarm"] as? String == "test")
    }

    @Test(arguments: ["examples/chamber.txt", "examples/sweep.lua"])
    func examplesRunUnchangedAgainstTheSimulator(example: String) throws {
        let result = try Subprocess.run("tether", ["run", Self.root.appendingPathComponent(example).path, "--sim"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("PASSED"))
    }

    @Test func unknownSimulatorProfileIsAUsageError() throws {
        let result = try Subprocess.run("tether", ["run", "-", "--port", "x=sim:oven"], stdin: "*IDN?\n")
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: Unknown simulator profile 'oven' in 'x=sim:oven'. Profiles: 'at-modem', 'env', 'gps', 'prompt-console', 'scpi-psu'. (see 'tether run --help')\n"
            ))
    }
}

/// `--lua-memory` bounds a script: past it, a script error naming the line, exit 65.
@Suite struct LuaMemoryEndToEndTests {
    @Test func aGreedyScriptEndsWithAScriptErrorNamingItsLine() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("greedy.lua")
        try "local t = {}\nfor i = 1, math.huge do\n  t[i] = string.rep('x', 1024) .. i\nend\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Subprocess.run("tether", ["run", path, "--sim", "--lua-memory", "8"])
        #expect(result.status == 65)
        #expect(
            result.stderr.hasSuffix(
                "\nError: \(path):3: out of memory: the script needs more than its limit of 8 MiB\n"))
    }
}
