import Foundation
import Glibc
import Testing

/// The habits of other tools' users: `tether PORT` as tio opens a port, `run PORT
/// SCRIPT` as the other commands take theirs, a hint for a path given as a subcommand.
@Suite struct HabitsEndToEndTests {
    /// A simulator at a link in a folder of the test's own.
    final class LinkedSimulator {
        let folder: TemporaryFolder
        let link: String
        let process: Subprocess

        init() throws {
            folder = try TemporaryFolder()
            link = folder.path("ttyENV")
            process = try Subprocess("tether-sim", ["--link", link])
            guard process.waitForOutput(containing: link) else { throw Failure() }
        }

        struct Failure: Error {}

        deinit {
            process.send(SIGTERM)
            _ = process.wait()
        }
    }

    /// `tether /dev/ttyUSB0` was `Unknown subcommand` with no hint.
    @Test func aPortAsTheFirstWordIsConnectOnATerminal() throws {
        let simulator = try LinkedSimulator()
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let tmux = try Tmux("\(Tmux.quoted(tether)) \(Tmux.quoted(simulator.link)); echo EXIT=$?; sleep 60")
        #expect(tmux.waitForScreen { $0.joined().contains("connected to") } != nil, "\(tmux.capture())")
        tmux.type("*IDN?")
        tmux.send("Enter")
        let screen = tmux.waitForScreen { $0.joined().contains("TETHER,ENV-1,SIM0001,1.0") }
        #expect(screen != nil, "\(tmux.capture().joined(separator: "\n"))")
        tmux.send("C-t", "q")
        #expect(tmux.waitForScreen { $0.contains("EXIT=0") } != nil, "\(tmux.capture().joined(separator: "\n"))")
    }

    @Test func aPortAsTheFirstWordIsConnectFromAPipe() throws {
        let simulator = try LinkedSimulator()
        let result = try Subprocess.run("tether", [simulator.link, "--quiet"], stdin: "*IDN?\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("*IDN? → TETHER,ENV-1,SIM0001,1.0  ("), "\(result.stdout)")
    }

    /// `tether --timeout 5s PORT` was `Unknown subcommand '--timeout'`: options before
    /// the port are connect's as after it.
    @Test func optionsBeforeThePortAreConnects() throws {
        let simulator = try LinkedSimulator()
        let result = try Subprocess.run("tether", ["--timeout", "5s", "--quiet", simulator.link], stdin: "*IDN?\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("*IDN? → TETHER,ENV-1,SIM0001,1.0  ("), "\(result.stdout)")
    }

    /// `tether --sim --help` is connect's help, as `tether connect --sim --help` is.
    @Test func helpAfterOptionsBeforeThePortIsConnects() throws {
        let result = try Subprocess.run("tether", ["--sim", "--help"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("OVERVIEW: Work with a device interactively"), "\(result.stdout)")
    }

    /// Options before a subcommand get the form that works; before nothing that opens
    /// a port, what to write instead.
    @Test(arguments: [
        (
            ["--timeout", "5s", "query", "/dev/ttyUSB0", "*IDN?"],
            "Error: Options follow the subcommand: tether query /dev/ttyUSB0 '*IDN?' --timeout 5s (see 'tether --help')\n"
        ),
        (
            ["--timeout", "5s"],
            "Error: '--timeout' before a subcommand or a port: options follow them, as in 'tether connect <port> "
                + "--timeout …' or 'tether query <port> <command> --timeout …' (see 'tether --help')\n"
        ),
    ])
    func optionsBeforeASubcommandAreShownAfterIt(arguments: [String], message: String) throws {
        let result = try Subprocess.run("tether", arguments)
        #expect(result.status == 64)
        #expect(result.stderr == message, "\(result.stderr)")
    }

    @Test func aMissingDevicePathIsConnectsPortNotFound() throws {
        let result = try Subprocess.run("tether", ["/dev/ttyTETHERNOPE"])
        #expect(result.status == 66)
        #expect(result.stderr == "Error: /dev/ttyTETHERNOPE: no such device\n", "\(result.stderr)")
    }

    @Test func aPathThatIsNoPortGetsADidYouMean() throws {
        let result = try Subprocess.run("tether", ["./ttyNOPE", "--baud", "9600"])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == "Error: Unknown subcommand './ttyNOPE'. Did you mean 'tether connect ./ttyNOPE'? (no such port yet) "
                + "(see 'tether --help')\n")
    }

    @Test func aScriptFileAsTheFirstWordGetsADidYouMeanRun() throws {
        let folder = try TemporaryFolder()
        let script = folder.path("checks.txt")
        try "*IDN?\n".write(toFile: script, atomically: true, encoding: .utf8)
        let result = try Subprocess.run("tether", [script])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == "Error: Unknown subcommand '\(script)'. Did you mean 'tether run \(script)'? (it is a file, not a port) "
                + "(see 'tether --help')\n")
    }

    /// `run` needed `--port` where the other commands take the port as an argument.
    @Test(arguments: [true, false])
    func runTakesThePortAsAnArgument(portFirst: Bool) throws {
        let simulator = try LinkedSimulator()
        let script = simulator.folder.path("checks.txt")
        try "*IDN? =~ ^TETHER\n".write(toFile: script, atomically: true, encoding: .utf8)
        let words = portFirst ? [simulator.link, script] : [script, simulator.link]
        let result = try Subprocess.run("tether", ["run"] + words + ["--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONLines.parse(result.stdout).last
        #expect(summary?["type"] as? String == "summary")
        #expect(summary?["outcome"] as? String == "passed", "\(result.stdout)")
    }

    @Test func runStillTakesPort() throws {
        let simulator = try LinkedSimulator()
        let result = try Subprocess.run("tether", ["run", "-", "--port", simulator.link], stdin: "*IDN? =~ ^TETHER\n")
        #expect(result.status == 0, "\(result.stderr)")
    }
}
