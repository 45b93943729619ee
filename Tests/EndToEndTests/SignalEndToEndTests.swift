import Foundation
import Testing

/// One rule for every command (POSIX, as for background jobs): a signal ignored when
/// tether starts stays ignored; otherwise SIGINT, SIGTERM and SIGHUP end it with
/// 128 + the signal's number.
@Suite struct SignalEndToEndTests {
    /// Each long-running command, with text its output shows once it is under way
    /// (`nil`: nothing is shown until it ends, so the test waits a moment instead).
    static let commands: [([String], String?)] = [
        (["monitor", "--sim"], "!READING"),
        (["run", "-", "--sim", "--lua"], "EMIT"),
        (["query", "--sim", "--dialect", "prompt", "--prompt", "NEVER> ", "--timeout", "0", "*IDN?"], nil),
    ]

    static let script = "emit({ ready = true })\nsleep(60000)\n"

    /// Starts tether through `sh`, with `trap` setting the signals' actions first (an
    /// ignored action is inherited through `exec`, as from a shell running a job).
    private func start(_ arguments: [String], trap: String) throws -> Subprocess {
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let process = try Subprocess(path: "/bin/sh", ["-c", "\(trap) exec \"$0\" \"$@\"", tether] + arguments)
        if arguments.contains("-") { process.write(Self.script) }
        process.closeInput()
        return process
    }

    private func waitUntilUnderWay(_ process: Subprocess, showing text: String?) {
        if let text {
            #expect(process.waitForOutput(containing: text), "\(process.stdoutSoFar)")
        } else {
            Thread.sleep(forTimeInterval: 1)
        }
    }

    @Test(arguments: commands)
    func aSignalIgnoredAtStartStaysIgnored(arguments: [String], underWay: String?) throws {
        let process = try start(arguments, trap: "trap '' INT HUP;")
        waitUntilUnderWay(process, showing: underWay)
        process.send(SIGINT)
        process.send(SIGHUP)
        Thread.sleep(forTimeInterval: 1)
        #expect(process.isRunning, "\(arguments[0]) ended on an ignored signal")
        process.send(SIGTERM)
        let result = process.wait(timeout: 30)
        #expect(result.status == 143, "\(result.stderr)")
    }

    @Test(arguments: commands)
    func sigintEndsEveryCommandWith130(arguments: [String], underWay: String?) throws {
        let process = try start(arguments, trap: "")
        waitUntilUnderWay(process, showing: underWay)
        process.send(SIGINT)
        let result = process.wait(timeout: 30)
        #expect(result.status == 130, "\(result.stderr)")
    }
}
