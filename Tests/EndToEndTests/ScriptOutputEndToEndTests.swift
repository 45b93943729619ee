import Foundation
import Testing

/// `query --value` and `--quiet`: output a shell script can take as it is
/// (docs/SCRIPTS.md).
@Suite struct ScriptOutputEndToEndTests {
    /// `r=$(tether query PORT 'TEMP?')` held `TEMP? → 21.78  (1 ms)`, and a
    /// notification that came meanwhile ended up in it too.
    @Test func valuePrintsExactlyTheRepliesAndANotificationGoesToStandardError() throws {
        // The env profile answers ALARM:TEST with OK, then sends '!ALARM test …'.
        let result = try Subprocess.run(
            "tether", ["query", "--sim", "--value", "--linger", "500ms", "ALARM:TEST", "TEMP?", "*IDN?"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4, "\(result.stdout)")
        #expect(lines[0] == "OK")
        #expect(lines[1].wholeMatch(of: /\d+\.\d+/) != nil, "\(result.stdout)")
        #expect(lines[2] == "TETHER,ENV-1,SIM0001,1.0")
        #expect(lines[3] == "")
        #expect(!result.stdout.contains("!ALARM"))
        #expect(result.stderr.contains("!ALARM test"), "\(result.stderr)")
        #expect(result.stderr.contains("connected to sim:env"))
    }

    @Test func aTimeoutPrintsNothingOnStandardOutputAndSaysSoOnStandardError() throws {
        let result = try Subprocess.run(
            "tether", ["query", "--sim", "-q", "--latency", "400", "--timeout", "100ms", "TEMP?"])
        #expect(result.status == 75)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("TEMP? ✗ no reply within 100 ms"), "\(result.stderr)")
    }

    @Test func anErrorReplyGoesToStandardErrorWithExitCode1() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--value", "NOPE?", "TEMP?"])
        #expect(result.status == 1)
        #expect(result.stdout.wholeMatch(of: /\d+\.\d+\n/) != nil, "\(result.stdout)")
        #expect(result.stderr.contains("NOPE? ✗ ERR"), "\(result.stderr)")
    }

    @Test func quietLeavesOutTheInformationalLines() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--value", "--quiet", "*IDN?"])
        #expect(result.status == 0)
        #expect(result.stdout == "TETHER,ENV-1,SIM0001,1.0\n")
        #expect(result.stderr == "")
        let monitor = try Subprocess.run("tether", ["monitor", "--sim", "--count", "1", "--quiet"])
        #expect(monitor.status == 0)
        #expect(monitor.stderr == "", "\(monitor.stderr)")
        #expect(monitor.stdout.hasPrefix("!READING"))
        let folder = try TemporaryFolder()
        let file = folder.path("image.bin")
        try Data(repeating: 0x5A, count: 3000).write(to: URL(fileURLWithPath: file))
        let sent = try Subprocess.run("tether", ["send", "--sim", "--quiet", file])
        #expect(sent.status == 0)
        #expect(sent.stderr == "", "\(sent.stderr)")
        #expect(sent.stdout.hasPrefix("Sent 1 file by ymodem in "))
        // Without --quiet, 'waiting for … to appear' comes first.
        let missing = folder.path("ttyMISSING")
        let lines = try Subprocess.run("tether", ["lines", missing, "--wait-timeout", "300ms", "--quiet"])
        #expect(lines.status == 66)
        #expect(lines.stderr == "Error: \(missing): no such device (waited 0.3 s)\n", "\(lines.stderr)")
    }

    @Test func valueWithAFormatForProgramsIsRefused() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--value", "--format", "json", "X"])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(
            result.stderr.hasPrefix("Error: '--value' prints the replies' text; it does not go with '--format json'"))
    }

    /// The docs' example (docs/SCRIPTS.md, "Shell scripts"): `set -e` stops the script
    /// at a command that got no reply.
    @Test func aShellScriptTakesTheValueAndSetEStopsAtAFailure() throws {
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let script = """
            set -e
            id=$('\(tether)' query --sim --value --quiet '*IDN?')
            echo "got [$id]"
            '\(tether)' query --sim --value --quiet --latency 400 --timeout 100ms 'TEMP?' > /dev/null
            echo "not reached"
            """
        let result = try Subprocess.run(path: "/bin/sh", ["-c", script])
        #expect(result.status == 75)
        #expect(result.stdout == "got [TETHER,ENV-1,SIM0001,1.0]\n")
    }
}
