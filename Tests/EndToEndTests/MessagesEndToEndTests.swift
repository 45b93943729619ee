import Foundation
import Testing
import TetherSimulator

/// Messages a new user got that explained nothing, each with the command that gave it.
@Suite struct MessagesEndToEndTests {
    /// Usage errors were three lines (message, usage, "See …").
    @Test func usageErrorIsOneLine() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--bud", "9600", "x"])
        #expect(result.status == 64)
        #expect(result.stderr == "Error: Unknown option '--bud'. Did you mean '--baud'? (see 'tether query --help')\n")
    }

    /// `tether query --sim $'--x\e]0;T\a' X` wrote a raw OSC (a terminal title) to
    /// standard error, and an argument with a line break made a two-line error: the
    /// bytes the user gave are shown escaped, on the one line.
    @Test(arguments: [
        (
            ["query", "--sim", "--x\u{1B}]0;T\u{07}", "X"],
            #"Error: Unknown option '--x\x1b]0;T\x07'. (see 'tether query --help')"#
        ),
        (["query", "/dev/tty\nNOPE", "X"], #"Error: /dev/tty\nNOPE: no such device"#),
        (["query", "--sim", "--timeout", "1\u{9B}2", "X"], #"'1\xc2\x9b2'"#),
    ])
    func argumentsAreEscapedInErrors(arguments: [String], shown: String) throws {
        let result = try Subprocess.run("tether", arguments)
        #expect(result.status == 64 || result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains(shown), "\(result.stderr.debugDescription)")
        #expect(result.stderr.filter(\.isNewline).count == 1, "\(result.stderr.debugDescription)")
        let controls = result.stderr.unicodeScalars.filter {
            $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value))
        }
        #expect(controls.isEmpty, "\(result.stderr.debugDescription)")
    }

    /// C1 controls (U+0080–U+009F) reached JSON strings raw: the `sent` record of a
    /// command holding CSI (U+009B) carries it escaped.
    @Test func c1ControlsAreEscapedInJSONRecords() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--format", "json", "X\u{9B}31m\u{85}"])
        #expect(!result.stdout.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
        #expect(result.stdout.contains(#""command":"X\u009b31m\u0085""#), "\(result.stdout)")
        let sent = try JSONLines.parse(result.stdout).first { $0["type"] as? String == "sent" }
        #expect(sent?["command"] as? String == "X\u{9B}31m\u{85}")
    }

    @Test(arguments: [
        (["query", "--sim", "--baudrate", "9600", "x"], "Unknown option '--baudrate'. Did you mean '--baud'?"),
        (
            ["query", "--port", "/dev/ttyUSB0", "x"],
            "Unknown option '--port'. The port is an argument here: 'tether query <port> …' (or '--sim')"
        ),
        (
            ["run", "checks.txt", "more.txt"],
            "Unexpected argument 'more.txt': give 'tether run [<port>] <script>' (a port is a serial device, "
                + "a /dev/ path, tcp:// or rfc2217://), or '--port' for each device"
        ),
        (
            ["run", "checks.txt", "--port", "1a=sim"],
            "The device name '1a' in '--port 1a=sim' is not a name: start with a letter or '_', then letters, digits or '_'"
        ),
    ])
    func usageErrorsSuggestTheFix(arguments: [String], message: String) throws {
        let result = try Subprocess.run("tether", arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: \(message) (see 'tether "), "\(result.stderr)")
    }

    /// `tether query sim x` said only "sim: no such device".
    @Test func simAsAPortHintsAtTheFlag() throws {
        let folder = try TemporaryFolder()
        let result = try Subprocess.run(path: "/bin/sh", ["-c", "cd '\(folder.url.path)' && '\(tether)' query sim x"])
        #expect(result.status == 66)
        #expect(
            result.stderr
                == "Error: No port or named device 'sim' (no such file, and no [sim] in docs/CONFIG.md's files). Did you mean '--sim'?\n"
        )
    }

    /// `--profile DIR` said "NSCocoaErrorDomain error 256".
    @Test func profileFolderIsNamed() throws {
        let folder = try TemporaryFolder()
        let result = try Subprocess.run("tether", ["query", "--sim", "--profile", folder.url.path, "x"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: Invalid simulator profile: \(folder.url.path): is a directory"))
    }

    /// A profile file named without `/` or `.json` was "no built-in profile … or a file
    /// path" although it exists; its real mistake is reported now.
    @Test func existingProfileFileIsReadAsAFile() throws {
        let folder = try TemporaryFolder()
        try #"{"dialect": "line",}"#.write(toFile: folder.path("myprofile"), atomically: true, encoding: .utf8)
        let result = try Subprocess.run(
            path: "/bin/sh", ["-c", "cd '\(folder.url.path)' && '\(tether)' query --sim --profile myprofile x"])
        #expect(result.status == 64)
        #expect(
            result.stderr.hasPrefix(
                "Error: Invalid simulator profile: myprofile: line 1, column 19: not valid JSON: a comma must be followed by another value"
            ), "\(result.stderr)")
    }

    /// A 100 000-byte argument gave a 261 KB message: every value a message quotes
    /// (an option's value, an option's name, a command, a port, a file, a profile, a
    /// shell's name) is cut to its first 100 characters, `…` and its length in bytes,
    /// and refusing it is as quick as refusing a short one.
    @Test(arguments: [
        ["query", "--sim", "--baud", String(repeating: "9", count: 100_000), "x"],
        ["query", "--sim", "--" + String(repeating: "x", count: 99_998), "x"],
        ["query", "--sim", String(repeating: "x", count: 99_998) + #"\q"#],
        ["query", "/dev/" + String(repeating: "x", count: 99_995), "x"],
        ["query", "--sim", "--profile", String(repeating: "x", count: 100_000), "x"],
        ["query", "--sim", "--log", "/nonexistent/" + String(repeating: "x", count: 99_987), "x"],
        ["run", "/nonexistent/" + String(repeating: "x", count: 99_987), "--sim"],
        ["completion", String(repeating: "x", count: 100_000)],
    ])
    func aHugeValueGivesAShortMessageNamingItsLength(arguments: [String]) throws {
        let result = try Subprocess.run("tether", arguments)
        #expect([64, 66, 73].contains(result.status), "\(result.stderr.prefix(400))")
        #expect(result.stderr.utf8.count < 300, "\(result.stderr.prefix(400))")
        #expect(result.stderr.contains("… (100000 bytes)") || result.stderr.contains("…' (100000 bytes)"))
    }

    /// A number out of range said only what kind of number was wanted: the message
    /// names the range the parser enforces, and `--help` states the same range
    /// (`--linger`'s 60000 maximum was in neither).
    @Test(arguments: [
        (
            ["query", "--sim", "--baud", "4000000000", "x"],
            "--baud <rate>': must be a whole number, 1 to 2147483647 baud"
        ),
        (
            ["query", "--sim", "--timeout", "99999999999", "x"],
            "--timeout <duration>': must be a duration such as 500ms or 2m, 0 to 24h; a bare number is ms"
        ),
        (
            ["query", "--sim", "--linger", "60001", "x"],
            "--linger <duration>': must be a duration such as 500ms or 2m, 0 to 1m; a bare number is ms"
        ),
        (
            ["query", "--sim", "--listen", "60001", "x"],
            "--listen <duration>': must be a duration such as 500ms or 2m, 0 to 1m; a bare number is ms"
        ),
        (
            ["monitor", "--sim", "--duration", "0"],
            "--duration <duration>': must be a duration such as 500ms or 2m, 1ms or more"
        ),
    ])
    func aValueOutOfRangeNamesTheRange(arguments: [String], message: String) throws {
        let result = try Subprocess.run("tether", arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        let range = String(message[message.range(of: ", ")!.upperBound...])
        let help = try Subprocess.run("tether", [arguments[0], "--help-all"])
        #expect(help.stdout.contains("allowed: \(range)"), "\(help.stdout)")
    }

    /// A 5 000-character port path gave `realpath failed … (errno 36)`, exit 74.
    @Test func overlongPortPathIsNotFound() throws {
        let path = "/dev/" + String(repeating: "a", count: 5000)
        let result = try Subprocess.run("tether", ["query", path, "x"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("… (5005 bytes): no such device"), "\(result.stderr)")
        #expect(result.stderr.count < 200)
    }

    /// `/dev/tty` without a controlling terminal said "device disconnected".
    @Test func devTTYWithoutATerminalSaysSo() throws {
        let result = try Subprocess.run(path: "/usr/bin/setsid", [tether, "query", "/dev/tty", "x"])
        #expect(result.status == 74)
        #expect(result.stderr.contains("tether has no controlling terminal"), "\(result.stderr)")
    }

    /// Permission denied on another user's pty suggested the `dialout` group.
    @Test func otherUsersPseudoTerminalNamesItsOwner() throws {
        guard getuid() == 0 else { return }  // Needs to run tether as another user.
        let simulator = try Simulator()
        defer { simulator.stop() }
        let result = try Subprocess.run(
            path: "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", tether, "query", simulator.devicePath, "x"])
        #expect(result.status == 69)
        #expect(
            result.stderr
                == "Error: \(simulator.devicePath): permission denied (a pseudo-terminal of user 'root'; run tether as that user)\n"
        )
    }

    private var tether: String { Subprocess.productsDirectory.appendingPathComponent("tether").path }
}
