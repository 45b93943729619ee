import Foundation
import Testing
import TetherSimulator

/// The bad-input matrix over the CLI: every option with bad values, paths that are not
/// ports, a busy port, unreadable and malformed scripts, profiles and device files.
/// Each gives one `Error:` line naming the problem, the documented exit code (README
/// "Exit codes"), and writes nothing to the device.
@Suite struct BadInputMatrixEndToEndTests {
    /// One bad input: the arguments (`{port}` is a simulated device's path, `{dir}` the
    /// folder of ``fixtures``), the exit code, and words the error line contains.
    struct Case: Sendable, CustomStringConvertible {
        var arguments: [String]
        var code: Int32
        var words: String
        var description: String { arguments.joined(separator: " ") }

        init(_ arguments: String, _ code: Int32, _ words: String) {
            self.arguments = arguments.split(separator: " ").map { $0 == "''" ? "" : String($0) }
            self.code = code
            self.words = words
        }
    }

    /// Files the cases refer to, by name.
    static let fixtures: [String: String] = [
        "expectation.txt": "== x\n",
        "empty.txt": "",
        "comments.txt": "# nothing\n\n",
        "syntax.lua": "local x = \n",
        "unknown-device.lua": "devices.nope.query('x')\n",
        "broken.json": #"{"dialect": "line", "commands": [x]}"#,
        "huge-initial.json": #"""
        {"dialect": "line", "properties": [{"name": "v", "type": "number", "format": "%d", "initial": 1e300}],
         "commands": []}
        """#,
        "no-dialect.json": #"{"commands": []}"#,
        "bad-baud.json": #"{"baud": "fast"}"#,
        "unknown-key.json": #"{"baudrate": 9600}"#,
        "cr-prompt.json": #"{"dialect": "prompt", "prompt": "=> \r"}"#,
    ]

    static let usage: Int32 = 64
    static let script: Int32 = 65
    static let notFound: Int32 = 66
    static let unavailable: Int32 = 69

    /// Every option of the device commands with bad values.
    static let options: [Case] = [
        Case("query {port} --baud 0 X", usage, "'--baud <rate>'"),
        Case("query {port} --baud -9600 X", usage, "'--baud <rate>'"),
        Case("query {port} --baud fast X", usage, "'--baud <rate>'"),
        Case("query {port} --baud 1e999 X", usage, "'--baud <rate>'"),
        Case("query {port} --baud '' X", usage, "'--baud <rate>'"),
        Case("query {port} --data-bits 9 X", usage, "'--data-bits <bits>'"),
        Case("query {port} --data-bits x X", usage, "'--data-bits <bits>'"),
        Case("query {port} --parity purple X", usage, "'--parity <parity>'"),
        Case("query {port} --stop-bits 3 X", usage, "'--stop-bits <bits>'"),
        Case("query {port} --flow-control maybe X", usage, "'--flow-control <mode>'"),
        Case("query {port} --timeout -1 X", usage, "'--timeout <duration>'"),
        Case("query {port} --timeout 1e99 X", usage, "'--timeout <duration>'"),
        Case("query {port} --timeout soon X", usage, "'--timeout <duration>'"),
        Case("query {port} --format xml X", usage, "'--format <format>'"),
        Case("query {port} --dialect modbus X", usage, "'--dialect <name>'"),
        Case("query {port} --eol nl X", usage, "'--eol <eol>'"),
        Case("query {port} --notify-pattern ( X", usage, "--notify-pattern"),
        Case("query {port} --error-pattern [ X", usage, "--error-pattern"),
        Case("query {port} --notify-pattern '' X", usage, "non-empty regular expression"),
        Case("query {port} --error-pattern '' X", usage, "non-empty regular expression"),
        Case("query {port} --prompt '' --dialect prompt X", usage, "'--prompt <text>'"),
        Case("query {port} --prompt-regex ( --dialect prompt X", usage, "--prompt-regex"),
        Case("query {port} --prompt-regex '' --dialect prompt X", usage, "non-empty regular expression"),
        Case("query {port} --prompt-regex [#$] --prompt # --dialect prompt X", usage, "only one of '--prompt'"),
        Case("query {port} --prompt-regex [#$] X", usage, "'--prompt-regex' applies only to '--dialect prompt'"),
        Case("query {port} --prompt-wait soon --dialect prompt X", usage, "'--prompt-wait <duration>'"),
        Case("query {port} --prompt-wait -1 --dialect prompt X", usage, "'--prompt-wait <duration>'"),
        Case("query --match '' X", usage, "port match ''"),
        Case("query {port} --wait-timeout -1 X", usage, "'--wait-timeout <duration>'"),
        Case("query {port} --wait-timeout 1e10 X", usage, "'--wait-timeout <duration>'"),
        Case("query {port} --dtr maybe X", usage, "'--dtr <mode>'"),
        Case("query {port} --rts 2 X", usage, "'--rts <mode>'"),
        Case("query {port} --pulse-dtr 0 X", usage, "'--pulse-dtr <duration>'"),
        Case("query {port} --break -5 X", usage, "'--break <duration>'"),
        Case("query {port} --device {dir}/nope.json X", usage, "does not exist"),
        Case("query {port} --device {dir} X", usage, "is a directory"),
        Case("query {port} --device {dir}/broken.json X", usage, "broken.json"),
        Case("query {port} --device {dir}/bad-baud.json X", usage, "bad-baud.json: baud"),
        Case("query {port} --device {dir}/unknown-key.json X", usage, "baudrate"),
        Case("query {port} --device {dir}/cr-prompt.json X", usage, "cr-prompt.json: prompt"),
        Case("query {port} --bud 9600 X", usage, "Did you mean '--baud'?"),
        Case("query {port} --latency 5 X", usage, "applies only to '--sim'"),
        Case("query --sim --latency x X", usage, "'--latency <ms>'"),
        Case("query --sim --jitter -1 X", usage, "'--jitter <ms>'"),
        Case("query --sim --pace-baud 0 X", usage, "'--pace-baud <rate>'"),
        Case("query --sim --split 0 X", usage, "'--split <bytes>'"),
        Case("query --sim --split-gap x X", usage, "'--split-gap <ms>'"),
        Case("query --sim --split-gap 5 X", usage, "'--split-gap' needs '--split <n>'"),
        Case("query --sim --wait X", usage, "'--wait' applies only to"),
        Case("query --sim --wait-timeout 5 X", usage, "'--wait' applies only to"),
        Case("query tcp://127.0.0.1:9 --wait X", usage, "'--wait' applies only to a device path"),
        Case("query rfc2217://127.0.0.1:9 --wait-timeout 5 X", usage, "'--wait' applies only to a device path"),
        Case("query tcp://user@127.0.0.1:9 X", usage, "has a user name ('user@')"),
        Case("monitor rfc2217://me@[::1]:9", usage, "has a user name ('me@')"),
        Case("query --sim --garbage 2 X", usage, "'--garbage <p>'"),
        Case("query --sim --drop -0.1 X", usage, "'--drop <p>'"),
        Case("query --sim --duplicate x X", usage, "'--duplicate <p>'"),
        Case("query --sim --disconnect-after x X", usage, "'--disconnect-after <ms>'"),
        Case("query --sim --disconnect-after-lines 0 X", usage, "'--disconnect-after-lines <n>'"),
        Case("query --sim --burst 5 X", usage, "'--burst <n@rate>'"),
        Case("query --sim --profile toaster X", usage, "toaster"),
        Case("query --sim --profile {dir}/nope.json X", usage, "no such file"),
        Case("query --sim --profile {dir} X", usage, "is a directory"),
        Case("query --sim --profile {dir}/broken.json X", usage, "not valid JSON"),
        Case("query --sim --profile {dir}/no-dialect.json X", usage, "dialect: missing"),
        Case("query --sim --profile {dir}/huge-initial.json X", usage, "cannot be shown with '%d'"),
        Case("query", usage, "Missing expected argument '<port>'"),
        Case("query {port}", usage, "Missing expected argument '<command> ...'"),
        Case("monitor {port} --count 0", usage, "'--count <n>'"),
        Case("monitor {port} --count x", usage, "'--count <n>'"),
        Case("connect {port} --bogus", usage, "Unknown option '--bogus'"),
        Case("lines {port} --baud 0", usage, "'--baud <rate>'"),
        Case("udev-rule {port}", usage, "Missing expected option '--name <name>'"),
        Case("list --bogus", usage, "Unknown option '--bogus'"),
        Case("frobnicate", usage, "frobnicate"),
    ]

    /// Paths that are not ports.
    static let paths: [Case] = [
        Case("query /dev/null X", unavailable, "/dev/null: not a serial port"),
        Case("query /etc/hostname X", unavailable, "not a serial port"),
        Case("query {dir} X", unavailable, "not a serial port"),
        Case("query /dev/ttyNOPE X", notFound, "/dev/ttyNOPE: no such device"),
        Case("query {dir}/dangling X", notFound, "dangling"),
        Case("monitor /dev/null", unavailable, "not a serial port"),
        Case("connect /dev/null", unavailable, "not a serial port"),
        Case("lines /dev/null", unavailable, "not a serial port"),
        Case("run {dir}/expectation.txt --port /dev/null", script, "expectation without a command"),
        Case("run {dir}/comments.txt --port /dev/null", script, "no commands"),
    ]

    /// Unreadable and malformed scripts.
    static let scripts: [Case] = [
        Case("run {dir}/nope.txt --port {port}", notFound, "nope.txt"),
        Case("run {dir} --port {port}", notFound, "is a directory"),
        Case("run {dir}/expectation.txt --port {port}", script, "expectation.txt:1:"),
        Case("run {dir}/empty.txt --port {port}", script, "empty"),
        Case("run {dir}/syntax.lua --port {port}", script, "syntax.lua:2:"),
        Case("run {dir}/unknown-device.lua --port {port}", script, "unknown device 'nope'"),
        Case("run {dir}/syntax.lua --port {port} --lua-memory 0", usage, "'--lua-memory <MiB>'"),
        Case("run {dir}/syntax.lua --port {port} --lua-memory 65537", usage, "'--lua-memory <MiB>'"),
        Case("run {dir}/syntax.lua --port {port} --lua-memory lots", usage, "'--lua-memory <MiB>'"),
        Case("run {dir}/syntax.lua --port 1a={port}", usage, "'1a'"),
        Case("run {dir}/syntax.lua", usage, "Missing a device"),
        Case("run", usage, "Missing expected argument '<script>'"),
    ]

    /// A test that gives input to a command refused before it reads any (exit 64) writes
    /// to a pipe without a reader: the write fails and the test process goes on (it was
    /// killed by SIGPIPE, with every test running beside it).
    @Test func inputForACommandRefusedAtOnceDoesNotEndTheTests() throws {
        let process = try Subprocess("tether", ["query", "--no-such-option", "X"])
        let result = process.wait(timeout: 30)
        #expect(result.status == 64, "\(result.stderr)")
        process.write(String(repeating: "X\n", count: 1000))
        process.closeInput()
    }

    @Test(arguments: options + paths + scripts)
    func aBadInputGivesOneErrorLineItsCodeAndWritesNothing(_ badInput: Case) throws {
        let folder = try TemporaryFolder()
        for (name, text) in Self.fixtures {
            try text.write(toFile: folder.path(name), atomically: true, encoding: .utf8)
        }
        try FileManager.default.createSymbolicLink(atPath: folder.path("dangling"), withDestinationPath: "/dev/nothing")
        let simulator = try Simulator(link: folder.path("device"))
        defer { simulator.stop() }
        let arguments = badInput.arguments.map {
            $0.replacingOccurrences(of: "{port}", with: folder.path("device"))
                .replacingOccurrences(of: "{dir}", with: folder.url.path)
        }
        let result = try Subprocess.run("tether", arguments, timeout: 30)
        #expect(result.status == badInput.code, "\(result.stderr)")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1, "\(result.stderr)")
        #expect(errors.first?.contains(badInput.words) == true, "\(result.stderr)")
        #expect(simulator.received.isEmpty, "wrote \(simulator.received.count) bytes to the device")
    }

    /// A prompt holding CR or LF can never match (it is the text after the last line
    /// end): every command timed out (75). It is refused, from the command line and
    /// from a `run` port's settings, before anything is sent.
    @Test(arguments: [
        ["query", "{port}", "--dialect", "prompt", "--prompt", "=> \r", "X"],
        ["query", "{port}", "--dialect", "prompt", "--prompt", "a\nb", "X"],
        ["run", "-", "--port", "{port},dialect=prompt,prompt=\r\n=> "],
    ])
    func aPromptWithALineEndIsRefused(_ arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let simulator = try Simulator(link: folder.path("device"))
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", arguments.map { $0.replacingOccurrences(of: "{port}", with: folder.path("device")) },
            stdin: "X\n", timeout: 30)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("Please provide a prompt without CR or LF"), "\(result.stderr)")
        #expect(simulator.received.isEmpty)
    }

    /// A port another tether holds: `port busy`, exit 69, and the holder's device
    /// receives nothing from the second.
    @Test(arguments: [["query", "{port}", "X"], ["monitor", "{port}"], ["lines", "{port}"], ["connect", "{port}"]])
    func aBusyPortIsRefused(_ arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let simulator = try Simulator(link: folder.path("device"))
        defer { simulator.stop() }
        let holder = try Subprocess("tether", ["monitor", folder.path("device")])
        defer {
            holder.send(SIGTERM)
            _ = holder.wait()
        }
        #expect(holder.waitForOutput(containing: "!READING"))
        let result = try Subprocess.run(
            "tether", arguments.map { $0 == "{port}" ? folder.path("device") : $0 }, timeout: 30)
        #expect(result.status == 69, "\(result.stderr)")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
        #expect(errors.count == 1 && errors[0].contains("port busy"), "\(result.stderr)")
        #expect(simulator.received.isEmpty, "wrote \(simulator.received.count) bytes to the device")
    }
}
