import Foundation
import Testing

/// `--help` is a command's common options, a page; `--help-all` every one, the
/// simulator's fault options once, under their own heading.
@Suite struct HelpAllEndToEndTests {
    @Test(arguments: ["query", "monitor", "connect", "run", "send", "receive"])
    func helpLeavesOutTheSpecialisedOptionsAndSaysWhere(command: String) throws {
        let help = try Subprocess.run("tether", [command, "--help"])
        #expect(help.status == 0)
        #expect(!help.stdout.contains("--latency"))
        #expect(!help.stdout.contains("--char-delay"))
        #expect(help.stdout.contains("--baud <rate>"))
        #expect(help.stdout.contains("'tether \(command) --help-all' shows "), "\(help.stdout)")
        // Shorter than connect's was (about 150 lines, 17 of them the fault options).
        #expect(help.stdout.split(separator: "\n").count < 140, "\(command): \(help.stdout.count)")
    }

    @Test(arguments: ["query", "monitor", "connect", "run"])
    func helpAllShowsTheFaultOptionsOnceUnderTheirHeading(command: String) throws {
        let all = try Subprocess.run("tether", [command, "--help-all"])
        #expect(all.status == 0)
        #expect(all.stdout.components(separatedBy: "SIMULATOR FAULT OPTIONS (with --sim):\n").count == 2)
        #expect(all.stdout.components(separatedBy: "  --latency <ms>").count == 2, "\(all.stdout)")
        #expect(all.stdout.contains("  --char-delay <duration>"))
        #expect(!all.stdout.contains("--help-all' shows"))
    }

    @Test func theManPageHasEachGroupOnce() throws {
        let page = try Subprocess.run("tether", ["--generate-man"]).stdout
        #expect(page.components(separatedBy: "\\fB\\-\\-latency\\fR").count == 2)
        #expect(page.components(separatedBy: "\\fB\\-\\-baud\\fR").count == 2)
        #expect(page.contains(".SH \"SIMULATOR FAULT OPTIONS (with \\-\\-sim)\""))
    }

    @Test func linesTakesNoOptionOfTheGroupsItDoesNotList() throws {
        let result = try Subprocess.run("tether", ["lines", "/dev/null", "--timeout", "1s"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: Unknown option '--timeout'"), "\(result.stderr)")
    }
}
