import Foundation
import Testing

/// One rule for every command (POSIX, as for background jobs): a signal ignored when
/// tether starts stays ignored; otherwise SIGINT, SIGTERM, SIGHUP and SIGQUIT end it with
/// 128 + the signal's number.
@Suite struct SignalEndToEndTests {
    /// Each long-running command, with text its output shows once it is under way
    /// (`nil`: nothing is shown until it ends, so the test waits a moment instead).
    static let commands: [([String], String?)] = [
        (["monitor", "--sim"], "!READING"),
        (["run", "-", "--sim", "--lua"], "EMIT"),
        (["query", "--sim", "--dialect", "prompt", "--prompt", "NEVER> ", "--timeout", "0", "*IDN?"], nil),
    ]

    /// The commands a fresh-user trial ended with Ctrl-\\ (SIGQUIT), which printed the
    /// Swift runtime's crash report and went on; `LOG` is a fresh file's path.
    static let quitCommands: [([String], String?)] = [
        (["monitor", "--sim", "--log", "LOG"], "!READING"),
        (["query", "--sim", "--drop", "1", "--timeout", "0", "TEMP?"], nil),
        (["run", "examples/sweep.lua", "--sim", "--latency", "400"], nil),
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

    /// Starts `arguments` with the default actions, sends `signal` once it is under way
    /// and waits for the end.
    private func end(_ arguments: [String], underWay: String?, with signal: Int32) throws -> Subprocess.Result {
        let process = try start(arguments, trap: "")
        waitUntilUnderWay(process, showing: underWay)
        process.send(signal)
        return process.wait(timeout: 30)
    }

    /// `connect` with piped input, its input ending right after the signal (a terminal
    /// pipeline's Ctrl-C reaches the writer too): it ends with the signal's code every
    /// time — 9 of 48 tries exited 0 when the end of input was noticed before the
    /// signal's dispatch source had run.
    static let pipedSignals: [(Int32, Int32)] = [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)]

    @Test(arguments: pipedSignals)
    func pipedConnectEndsWithTheSignalAlsoWhenItsInputEndsAtOnce(signal: Int32, code: Int32) throws {
        for _ in 0..<6 {
            let process = try Subprocess("tether", ["connect", "--sim"])
            process.write("*IDN?\n")
            #expect(process.waitForOutput(containing: "TETHER,"), "\(process.stdoutSoFar)")
            process.send(signal)
            process.closeInput()
            let result = process.wait(timeout: 30)
            #expect(result.status == code, "\(result.stdout)\(result.stderr)")
        }
    }

    @Test(arguments: commands)
    func sigintEndsEveryCommandWith130(arguments: [String], underWay: String?) throws {
        let result = try end(arguments, underWay: underWay, with: SIGINT)
        #expect(result.status == 130, "\(result.stderr)")
    }

    @Test(arguments: quitCommands)
    func sigquitEndsEveryCommandWith131AndNoCrashReport(arguments: [String], underWay: String?) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("quit-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: log) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let resolved = arguments.map {
            $0 == "LOG" ? log.path : $0.hasPrefix("examples/") ? root.appendingPathComponent($0).path : $0
        }
        let result = try end(resolved, underWay: underWay, with: SIGQUIT)
        #expect(result.status == 131, "\(result.stderr)")
        #expect(!result.stderr.contains("crashed"), "\(result.stderr)")
    }

    /// `kill -ABRT` from outside made the Swift runtime print a crash report and tether
    /// go on to exit 0. It ends tether as a signal that ends it (128 + 6); tether's own
    /// `abort()` would still be a crash report.
    @Test(arguments: commands)
    func anAbortSentFromOutsideEndsEveryCommandWith134(arguments: [String], underWay: String?) throws {
        let result = try end(arguments, underWay: underWay, with: SIGABRT)
        #expect(result.status == 134, "\(result.stderr)")
        #expect(!result.stderr.contains("crashed"), "\(result.stderr)")
    }

    /// Ctrl-C on `tether query --sim --drop 1 --timeout 0 'TEMP?'` (the simulator drops
    /// the reply, so the request waits for ever) printed `TEMP? ✗ disconnected before the
    /// reply was complete (closed)`, blaming the device. It says the user interrupted,
    /// in text and in the JSON `failed` record.
    @Test(arguments: ["text", "json"])
    func ctrlCOnAQueryInFlightSaysItWasInterrupted(format: String) throws {
        let process = try start(
            ["query", "--sim", "--drop", "1", "--timeout", "0", "--format", format, "TEMP?"], trap: "")
        // Text shows the line once it has an outcome; JSON shows the `sent` record.
        waitUntilUnderWay(process, showing: format == "json" ? "\"sent\"" : nil)
        process.send(SIGINT)
        let result = process.wait(timeout: 30)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(!result.stdout.contains("disconnected"), "\(result.stdout)")
        if format == "json" {
            let failed = try JSONLines.parse(result.stdout).first { $0["type"] as? String == "failed" }
            #expect(failed?["reason"] as? String == "interrupted before the reply came", "\(result.stdout)")
        } else {
            #expect(result.stdout.contains("TEMP? ✗ interrupted before the reply came"), "\(result.stdout)")
        }
    }

    /// A program a command starts while it traps the signals (here a Lua script's
    /// `io.popen`, during `run`) begins as tether did: no signal blocked, and none of
    /// the trapped ones ignored (`SigBlk` and `SigIgn` of its `/proc/self/status`).
    @Test func aProgramStartedWhileTrappingHasNoSignalBlockedOrIgnored() throws {
        let script = """
            local status = io.popen('cat /proc/self/status'):read('a')
            print('SigBlk=' .. status:match('SigBlk:%s*(%x+)') .. ' SigIgn=' .. status:match('SigIgn:%s*(%x+)'))
            """
        let result = try Subprocess.run("tether", ["run", "-", "--lua", "--sim"], stdin: script + "\n")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // A script's `print` writes to standard error (docs/SCRIPTING.md).
        let fields = result.stderr.split(whereSeparator: { $0 == " " || $0 == "\n" })
        func mask(_ name: String) -> UInt64? {
            fields.first { $0.hasPrefix(name + "=") }.flatMap { UInt64($0.dropFirst(name.count + 1), radix: 16) }
        }
        let blocked = mask("SigBlk")
        let ignored = mask("SigIgn")
        #expect(blocked == 0, "\(result.stderr)")
        let trapped = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, __libc_current_sigrtmin()]
            .reduce(UInt64(0)) { $0 | 1 << UInt64($1 - 1) }
        #expect(ignored.map { $0 & trapped } == 0, "\(result.stderr)")
    }
}
