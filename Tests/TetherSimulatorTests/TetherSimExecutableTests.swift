import Foundation
import Glibc
import Testing
import TetherSimulator

/// The built `tether-sim`, next to the test binary (`.build/<triple>/debug/`), run as a
/// child process.
struct TetherSimProcess {
    let process = Process()
    let output = Pipe()
    let errors = Pipe()

    /// Where `swift build` put `tether-sim`: the directory of the running test binary.
    static var executableURL: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("tether-sim")
    }

    init(_ arguments: [String]) throws {
        let url = Self.executableURL
        try #require(
            FileManager.default.isExecutableFile(atPath: url.path),
            "\(url.path) is missing: build it with 'swift build --build-tests' (builds all products)"
        )
        process.executableURL = url
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// The next stdout line, or `nil` if none arrives within `timeout`.
    func readLine(timeout: Duration = .seconds(10)) -> String? {
        let deadline = ContinuousClock.now + timeout
        var line: [UInt8] = []
        let fd = output.fileHandleForReading.fileDescriptor
        while ContinuousClock.now < deadline {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(fd, &byte, 1) == 1 else { return nil }
            if byte == 10 { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
        return nil
    }

    /// The exit status, or `nil` if the process is still running after `timeout`.
    func waitForExit(timeout: Duration = .seconds(10)) -> Int32? {
        guard eventually(timeout: timeout, { !process.isRunning }) else { return nil }
        return process.terminationStatus
    }

    /// Everything written to stdout and stderr (after the process ended).
    func drain() -> (output: String, errors: String) {
        (
            String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        )
    }
}

@Suite struct TetherSimExecutableTests {
    static let signals: [(Int32, Int32)] = [(SIGTERM, 143), (SIGINT, 130)]

    @Test(arguments: signals)
    func servesOnAPrintedPathAndRemovesItsLinkOnSignal(signal: Int32, code: Int32) throws {
        let link = temporaryPath("ttySimExe")
        let sim = try TetherSimProcess(["--link", link, "--seed", "42"])
        let deviceLine = try #require(sim.readLine())
        let linkLine = try #require(sim.readLine())
        let device = try #require(deviceLine.wholeMatch(of: #/device: (/dev/pts/\d+)/#)?.output.1)
        #expect(linkLine == "link: \(link)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == String(device))

        let client = try PtyClient(path: link)
        client.send("*IDN?\r")
        #expect(client.readLine() == "TETHER,ENV-1,SIM0001,1.0")

        kill(sim.process.processIdentifier, signal)
        #expect(sim.waitForExit() == code)
        #expect(client.readUntilHangUp(timeout: .seconds(2)) != nil)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
    }

    /// After the devices, tether-sim prints the tether options its device needs; with
    /// the garbage fault the notification pattern is no longer anchored.
    @Test(arguments: [
        (["--profile", "env"], "tether options: --dialect line --notify-pattern '^!' --error-pattern '^ERR'"),
        (
            ["--profile", "env", "--garbage", "0.2"],
            "tether options: --dialect line --notify-pattern '!' --error-pattern '^ERR'"
        ),
        (["--profile", "at-modem"], "tether options: --dialect at"),
        (
            ["--profile", "prompt-console"],
            "tether options: --dialect prompt --prompt '=> ' --error-pattern '^Unknown command|^## Error|^Usage:'"
        ),
    ])
    func printsTheTetherOptionsItsDeviceNeeds(arguments: [String], expected: String) throws {
        let sim = try TetherSimProcess(arguments)
        _ = try #require(sim.readLine())
        #expect(sim.readLine() == expected)
        kill(sim.process.processIdentifier, SIGTERM)
        #expect(sim.waitForExit() == 143)
    }

    @Test func rejectsAnUnknownOptionWithExit64() throws {
        let sim = try TetherSimProcess(["--bogus"])
        #expect(sim.waitForExit() == 64)
        let (output, errors) = sim.drain()
        #expect(output.isEmpty)
        #expect(errors == "Error: Unknown option '--bogus'. (see 'tether-sim --help')\n")
    }

    @Test(arguments: [["--seed", "-3"], ["--seed"], ["--link"], ["extra"]])
    func rejectsBadValuesWithExit64(arguments: [String]) throws {
        let sim = try TetherSimProcess(arguments)
        #expect(sim.waitForExit() == 64)
        #expect(sim.drain().errors.hasPrefix("Error: "))
    }

    /// An unknown profile name exited 65, a profile mistake, where `tether --sim
    /// --profile nope` exits 64: it is a usage error in both.
    @Test func rejectsAnUnknownProfileNameWithExit64() throws {
        let sim = try TetherSimProcess(["--profile", "nope"])
        #expect(sim.waitForExit() == 64)
        let (output, errors) = sim.drain()
        #expect(output.isEmpty)
        #expect(
            errors == "Error: The value 'nope' is invalid for '--profile <name|file>': expected a built-in profile's "
                + "name (\(SimulatorProfiles.builtInNames.joined(separator: ", "))) or a file's path "
                + "(see 'tether-sim --help')\n")
    }

    @Test func printsHelpInArgumentParserSections() throws {
        let sim = try TetherSimProcess(["--help"])
        #expect(sim.waitForExit() == 0)
        let help = sim.drain().output
        for section in [
            "OVERVIEW: ", "USAGE: tether-sim", "OPTIONS:", "--link <path>", "--seed <seed>",
        ] {
            #expect(help.contains(section), "\(section)")
        }
    }

    @Test func refusesToOverwriteAFileWithExit69() throws {
        let path = temporaryPath("occupied")
        try Data().write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sim = try TetherSimProcess(["--link", path])
        #expect(sim.waitForExit() == 69)
        #expect(sim.drain().errors.contains("is not a symbolic link"))
    }
}
