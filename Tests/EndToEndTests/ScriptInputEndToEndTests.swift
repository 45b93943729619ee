import Foundation
import Testing

/// How `tether run` takes its script and ends: any readable stream, a byte-order mark,
/// empty scripts, `os.exit`, Lua commands checked like the command line's, and the
/// JSON records of runs that end before they start.
@Suite struct ScriptInputEndToEndTests {
    private var tether: String { Subprocess.productsDirectory.appendingPathComponent("tether").path }

    /// `tether run <(echo '*IDN?') --sim` said "cannot be read" (exit 66).
    @Test func processSubstitutionIsAScript() throws {
        let result = try Subprocess.run(path: "/bin/bash", ["-c", "'\(tether)' run <(echo '*IDN?') --sim"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("PASS    /dev/fd/"), "\(result.stdout)")
    }

    /// A FIFO was refused like process substitution.
    @Test func fifoIsAScript() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("script.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try Subprocess.run(
            path: "/bin/bash", ["-c", "printf '*IDN? =~ ^TETHER\\n' > '\(fifo)' & '\(tether)' run '\(fifo)' --sim"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 passed"), "\(result.stdout)")
    }

    /// `/dev/null` was "cannot be read"; it is an empty script now (65).
    @Test(arguments: [("/dev/null", "/dev/null: the script is empty; there is nothing to run")])
    func emptyStreamIsAnEmptyScript(path: String, message: String) throws {
        let result = try Subprocess.run("tether", ["run", path, "--sim"])
        #expect(result.status == 65)
        #expect(result.stderr == "Error: \(message)\n")
    }

    /// An empty script, or a query file of comments only, passed with exit 0.
    @Test(arguments: [
        ("", "stdin: the script is empty; there is nothing to run"),
        ("\n  \n", "stdin: the script is empty; there is nothing to run"),
        ("# nothing yet\n", "stdin: no commands (only comments and blank lines)"),
    ])
    func emptyScriptIsAScriptError(text: String, message: String) throws {
        let result = try Subprocess.run("tether", ["run", "-", "--sim"], stdin: text)
        #expect(result.status == 65)
        #expect(result.stderr == "Error: \(message)\n")
        #expect(result.stdout.isEmpty)
    }

    /// A UTF-8 byte-order mark was sent as part of the first command, and was a Lua
    /// syntax error.
    @Test(arguments: [
        ("bom.txt", "*IDN? =~ ^TETHER\n"),
        ("bom.lua", "check(device:query('*IDN?')[1] == 'TETHER,ENV-1,SIM0001,1.0')\n"),
    ])
    func byteOrderMarkIsDropped(name: String, text: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.path(name)
        try Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)).write(to: URL(fileURLWithPath: path))
        let result = try Subprocess.run("tether", ["run", path, "--sim", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let sent = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "sent" }
        #expect(sent.map { $0["command"] as? String } == ["*IDN?"])
    }

    /// `os.exit(3)` ended tether at once, without a summary.
    @Test func osExitWritesTheSummary() throws {
        let script = "check(true)\nos.exit(3)\ncheck(false, 'never')\n"
        let result = try Subprocess.run("tether", ["run", "-", "--lua", "--sim", "--format", "json"], stdin: script)
        #expect(result.status == 1, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        let checks = records.filter { $0["type"] as? String == "check" }
        #expect(checks.map { $0["description"] as? String } == ["check(true)", "os.exit(3)"])
        #expect(checks.last?["line"] as? Int == 2)
        #expect(records.last?["type"] as? String == "summary")
        #expect(records.last?["outcome"] as? String == "failed")
    }

    /// `os.exit()` and `os.exit(0)` end the script; the run's outcome is its checks'.
    @Test(arguments: ["os.exit()", "os.exit(0)", "os.exit(true)"])
    func osExitWithSuccessPasses(call: String) throws {
        let result = try Subprocess.run("tether", ["run", "-", "--lua", "--sim"], stdin: "check(true)\n\(call)\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("PASSED\n"), "\(result.stdout)")
    }

    /// `query("A\nB")` from Lua reached the device. (`query("")` is a command: the line
    /// end alone, docs/DIALECTS.md "A command's bytes".)
    @Test(arguments: [
        ("device:query('A\\nB')", "stdin:1: query: The command 'A\\nB' contains a line break"),
        ("device:send('X\\r')", "stdin:1: send: The command 'X\\r' contains a line break"),
    ])
    func luaCommandsGetTheCommandLineChecks(call: String, message: String) throws {
        let result = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--sim", "--format", "json"], stdin: call + "\n")
        #expect(result.status == 65)
        let records = try JSONLines.parse(result.stdout)
        #expect(!records.contains { $0["type"] as? String == "sent" })
        let error = records.first { $0["type"] as? String == "script_error" }
        #expect(error?["message"] as? String == message)
    }

    /// With `--format json`, a script error found before the run wrote nothing to stdout.
    @Test func scriptErrorBeforeTheRunEndsWithASummary() throws {
        let result = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--sim", "--format", "json"], stdin: "x = = 1\n")
        #expect(result.status == 65)
        let records = try JSONLines.parse(result.stdout)
        #expect(records.map { $0["type"] as? String } == ["script_error", "summary"])
        #expect(records[0]["line"] as? Int == 1)
        #expect(records[1]["outcome"] as? String == "script_error")
    }

    /// `--dry-run --format json` wrote only text.
    @Test func dryRunInJSON() throws {
        let result = try Subprocess.run(
            "tether", ["run", "-", "--sim", "--dry-run", "--format", "json"], stdin: "*IDN?\nTEMP?\n")
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        #expect(records.map { $0["type"] as? String } == ["dry_run", "summary"])
        #expect(records[0]["commands"] as? Int == 2)
        #expect(records[0]["devices"] as? Int == 1)
        #expect(records[1]["outcome"] as? String == "passed")
    }
}
