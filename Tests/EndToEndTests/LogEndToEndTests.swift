import Foundation
import Glibc
import Testing
import TetherSimulator

/// `--log FILE`: the JSON Lines records of `--format json`, appended to a file beside
/// the terminal's text, for every command that opens a device.
@Suite struct LogEndToEndTests {
    private func records(_ path: String) throws -> [[String: Any]] {
        try JSONLines.parse(String(contentsOfFile: path, encoding: .utf8))
    }

    private func types(_ records: [[String: Any]]) -> [String] { records.compactMap { $0["type"] as? String } }

    /// The text view still writes to the terminal; the file gets the same records as
    /// `--format json`, every one with `v`, `time` and `port`.
    @Test func queryLogsTheSameRecordsAsFormatJSON() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("query.jsonl")
        let text = try Subprocess.run("tether", ["query", "--sim", "--log", log, "*IDN?", "NOPE"])
        #expect(text.status == 1, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("*IDN? → TETHER,ENV-1,SIM0001,1.0  ("), "\(text.stdout)")
        let logged = try records(log)
        let json = try JSONLines.parse(
            Subprocess.run("tether", ["query", "--sim", "--format", "json", "*IDN?", "NOPE"]).stdout)
        #expect(types(logged) == types(json))
        #expect(types(logged) == ["connected", "sent", "reply", "sent", "reply"])
        #expect(logged[2]["lines"] as? [String] == ["TETHER,ENV-1,SIM0001,1.0"])
        #expect(logged[4]["lines"] as? [String] == [#"ERR -113,"Undefined header""#])
        #expect(logged[4]["error"] as? Bool == true)
        for record in logged {
            #expect(record["v"] as? Int == 1)
            #expect((record["port"] as? String)?.hasPrefix("sim:env (/dev/pts/") == true)
            #expect((record["time"] as? String)?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        }
    }

    /// A second run appends to the file: both runs' records are there, in order.
    @Test func aSecondRunAppends() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("runs.jsonl")
        for command in ["*IDN?", "TEMP?"] {
            let result = try Subprocess.run("tether", ["query", "--sim", "--log", log, command])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let logged = try records(log)
        #expect(types(logged) == ["connected", "sent", "reply", "connected", "sent", "reply"])
        #expect(
            logged.compactMap { $0["type"] as? String == "sent" ? $0["command"] as? String : nil } == [
                "*IDN?", "TEMP?",
            ])
    }

    @Test func monitorLogsEveryNotification() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("monitor.jsonl")
        let result = try Subprocess.run("tether", ["monitor", "--sim", "--count", "3", "--log", log])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 3)
        let logged = try records(log)
        #expect(types(logged) == ["connected", "notification", "notification", "notification"])
        let readings = logged.dropFirst().compactMap { $0["readings"] as? [String: Any] }
        #expect(readings.count == 3 && readings.allSatisfy { $0["temp"] is Double })
    }

    /// A run logs the device's traffic and its own records: the checks and the summary.
    @Test func runLogsTrafficChecksAndTheSummary() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("run.jsonl")
        let result = try Subprocess.run(
            "tether", ["run", "-", "--sim", "--log", log], stdin: "*IDN? =~ ^TETHER\nTEMP? =~ ^NOPE\n")
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("PASS"), "\(result.stdout)")
        let logged = try records(log)
        let run = types(logged).filter { ["check", "summary"].contains($0) }
        #expect(run == ["check", "check", "summary"])
        #expect(
            logged.filter { $0["type"] as? String == "check" }.map { $0["status"] as? String } == ["passed", "failed"])
        #expect(logged.last?["outcome"] as? String == "failed")
        #expect(types(logged).filter { $0 == "reply" }.count == 2)
    }

    /// A script error found before any port opens still reaches the log, with the
    /// summary that always ends a run's records.
    @Test func aScriptErrorIsLoggedToo() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("run.jsonl")
        let result = try Subprocess.run("tether", ["run", "-", "--sim", "--lua", "--log", log], stdin: "query(\n")
        #expect(result.status == 65, "\(result.stderr)")
        let logged = try records(log)
        #expect(types(logged) == ["script_error", "summary"])
        #expect(logged.last?["outcome"] as? String == "script_error")
    }

    @Test func linesLogsItsRecord() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("device")
        let simulator = try Simulator(link: link)
        defer { simulator.stop() }
        let log = folder.path("lines.jsonl")
        let result = try Subprocess.run("tether", ["lines", link, "--log", log])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "DTR on  RTS on  CTS on  DSR on  DCD on  RI off  (pseudo-terminal: emulated)\n")
        let logged = try records(log)
        #expect(types(logged) == ["lines"])
        #expect(logged.first?["port"] as? String == link)
        #expect(logged.first?["dtr"] as? Bool == true && logged.first?["ri"] as? Bool == false)
        #expect(logged.first?["time"] is String)
    }

    /// A device that stops reading holds a long command's output: the Model gives the
    /// write up at its deadline (5 208 ms on the wire at 115 200 baud plus the 4 000 ms
    /// timeout) and the request has failed — a `failed` record in the log, exit 74.
    @Test func aHeldWriteIsAFailedRequestInTheLog() throws {
        var master: Int32 = 0
        var slave: Int32 = 0
        var name = [CChar](repeating: 0, count: 64)
        try #require(openpty(&master, &slave, &name, nil, nil) == 0)
        defer { close(master) }
        close(slave)
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let folder = try TemporaryFolder()
        let log = folder.path("held.jsonl")
        let command = String(repeating: "X", count: 60_000)
        let result = try Subprocess.run("tether", ["query", path, "--timeout", "4000", "--log", log, command])
        #expect(result.status == 74, "\(result.stderr)")
        let logged = try records(log)
        // `held`: the opening listen of a `line` device told nothing (docs/JSON.md).
        #expect(types(logged) == ["connected", "held", "sent", "failed"])
        let held = try #require(logged.first { $0["type"] as? String == "held" })
        #expect(held["reason"] as? String == "listen" && (held["held_ms"] as? Int ?? 0) >= 150)
        let failed = try #require(logged.first { $0["type"] as? String == "failed" })
        let message = try #require(failed["reason"] as? String)
        #expect(message.hasPrefix("not all sent: the port took "), "\(message)")
        #expect(message.contains(" of 60001 bytes in 9208 ms"), "\(message)")
    }

    /// The file is opened before the port: a log that cannot be opened ends tether at
    /// once with 73, and no device is touched.
    @Test(arguments: [
        ["query", "--sim", "*IDN?"], ["monitor", "--sim", "--count", "1"], ["run", "-", "--sim"],
        ["connect", "--sim"],
    ])
    func aLogThatCannotBeOpenedIsRefusedBeforeConnecting(command: [String]) throws {
        let folder = try TemporaryFolder()
        let result = try Subprocess.run(
            "tether", command + ["--log", folder.path("none/x.jsonl")], stdin: "*IDN?\n")
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "Error: cannot open the log file \(folder.path("none/x.jsonl")): No such file or directory\n")
    }

    /// `tether query --sim --log FIFO '*IDN?'` with no process reading the FIFO blocked
    /// in `open(2)` for ever, before any port opened. It is refused at once with 73.
    @Test func aFIFOWithNoReaderIsRefusedAtOnce() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("log.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        let result = try Subprocess.run("tether", ["query", "--sim", "--log", fifo, "*IDN?"], timeout: 20)
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "Error: cannot open the log file \(fifo): no process reads the FIFO\n")
    }

    /// A FIFO that a process reads is a log like a file: every record reaches the reader.
    @Test func aFIFOWithAReaderGetsTheRecords() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("log.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let result = try Subprocess.run("tether", ["query", "--sim", "--log", fifo, "*IDN?"], timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = read(reader, &buffer, buffer.count), count > 0 { received += buffer.prefix(count) }
        #expect(try JSONLines.types(String(decoding: received, as: UTF8.self)) == ["connected", "sent", "reply"])
    }

    /// A log file deleted mid-run: exit 0, no warning, records written to the unlinked
    /// file. The next record ends the session as a full disk does: 74, naming the file.
    @Test func aLogDeletedMidRunEndsTheSession() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("deleted.jsonl")
        let monitor = try Subprocess("tether", ["monitor", "--sim", "--count", "60", "--log", log])
        defer { if monitor.isRunning { monitor.send(SIGKILL) } }
        #expect(waitUntil { ((try? records(log)) ?? []).contains { $0["type"] as? String == "notification" } })
        try #require(unlink(log) == 0)
        let result = monitor.wait(timeout: 30)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("Error: cannot write to \(log): the file was deleted\n"), "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count < 30, "monitor went on after the log was deleted")
    }

    /// `printf 'CMD1\nSECOND\n' | tether connect PTY --log /dev/full` ended with 74,
    /// yet the device received CMD1 and SECOND in 3 runs of 4: the failed write closed
    /// the device from a task, while the typed lines went on being sent. The session
    /// ends at the failed write: the device (a pty the test holds) receives nothing.
    @Test func connectSendsNothingOnceTheLogCannotBeWritten() throws {
        for _ in 1...5 {
            var master: Int32 = 0
            var slave: Int32 = 0
            var name = [CChar](repeating: 0, count: 64)
            try #require(openpty(&master, &slave, &name, nil, nil) == 0)
            defer {
                close(master)
                close(slave)
            }
            let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let result = try Subprocess.run(
                "tether", ["connect", path, "--log", "/dev/full"], stdin: "CMD1\nSECOND\n")
            #expect(result.status == 74, "\(result.stderr)")
            #expect(result.stderr.hasSuffix("Error: cannot write to /dev/full: No space left on device\n"))
            _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 256)
            while case let count = read(master, &buffer, buffer.count), count > 0 {
                received += buffer.prefix(count)
            }
            let text = String(decoding: received, as: UTF8.self)
            #expect(received.isEmpty, "the device received \(text.debugDescription)")
        }
    }
}
