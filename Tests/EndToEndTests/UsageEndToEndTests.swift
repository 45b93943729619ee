import Foundation
import Testing

/// Bad input gets a one-line error and a distinct, documented exit code.
@Suite struct UsageEndToEndTests {
    @Test func missingPort() throws {
        let result = try Subprocess.run("tether", ["query", "/dev/ttyNOPE42", "*IDN?"])
        #expect(result.status == 66)
        #expect(result.stderr == "Error: /dev/ttyNOPE42: no such device\n")
    }

    @Test func portThatIsNotATerminal() throws {
        let result = try Subprocess.run("tether", ["query", "/dev/null", "*IDN?"])
        #expect(result.status == 69)
        #expect(result.stderr == "Error: /dev/null: not a serial port\n")
    }

    @Test func badBaudRate() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--baud", "abc", "*IDN?"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix("Error: The value 'abc' is invalid for '--baud <rate>': must be a whole number"))
        #expect(result.stderr.split(separator: "\n").first?.contains("--baud") == true)
    }

    @Test(arguments: ["-1", "abc", "1x"])
    func badTimeout(value: String) throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--timeout", value, "*IDN?"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("'--timeout <duration>'"))
    }

    @Test func unknownOptionSuggestsTheRightOne() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--bud", "9600", "*IDN?"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: Unknown option '--bud'. Did you mean '--baud'? (see 'tether query --help')\n"))
    }

    @Test func everyCommandHasHelp() throws {
        let root = try Subprocess.run("tether", ["--help"])
        #expect(root.status == 0)
        for command in ["query", "monitor", "connect", "list"] {
            #expect(root.stdout.contains("  \(command) "), "tether --help lists \(command)")
            let help = try Subprocess.run("tether", [command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.hasPrefix("OVERVIEW: "))
            #expect(help.stdout.contains("USAGE: tether \(command)"))
        }
    }

    @Test func defaultTimeoutIsInTheHelp() throws {
        let help = try Subprocess.run("tether", ["query", "--help"])
        #expect(help.stdout.contains("(allowed: 0 to 24h; a bare number is ms; default: 1s)"))
    }

    /// `--prompt=` took the next argument as its value, and `--sim=` passed as the flag
    /// (found in a code review: the `=` split dropped the empty value).
    @Test func emptyInlineValuesAreNotSkipped() throws {
        let prompt = try Subprocess.run(
            "tether", ["query", "--sim", "--profile", "prompt-console", "--prompt=", "version"])
        #expect(prompt.status == 64)
        #expect(prompt.stderr.hasPrefix("Error: The value of '--prompt <text>' is empty."))
        let sim = try Subprocess.run("tether", ["query", "--sim=", "x"])
        #expect(sim.status == 64)
        #expect(sim.stderr.hasPrefix("Error: '--sim' takes no value"))
    }
}
