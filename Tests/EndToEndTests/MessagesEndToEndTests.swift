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

    @Test(arguments: [
        (["query", "--sim", "--baudrate", "9600", "x"], "Unknown option '--baudrate'. Did you mean '--baud'?"),
        (
            ["query", "--port", "/dev/ttyUSB0", "x"],
            "Unknown option '--port'. The port is an argument here: 'tether query <port> …' (or '--sim')"
        ),
        (
            ["run", "checks.txt", "/dev/ttyUSB0"],
            "Unexpected argument '/dev/ttyUSB0'. Did you mean '--port /dev/ttyUSB0'?"
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
        #expect(result.stderr == "Error: sim: no such device. Did you mean '--sim'?\n")
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

    /// A 5 000-character port path gave `realpath failed … (errno 36)`, exit 74.
    @Test func overlongPortPathIsNotFound() throws {
        let path = "/dev/" + String(repeating: "a", count: 5000)
        let result = try Subprocess.run("tether", ["query", path, "x"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("(5005 bytes, longer than a path can be): no such device"), "\(result.stderr)")
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
