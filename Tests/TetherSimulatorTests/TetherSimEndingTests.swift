import Foundation
import Glibc
import Testing

/// How `tether-sim` ends: a failed write to stdout exits 74 with a message (it crashed
/// with "'try!' expression unexpectedly raised an error", exit 132), a signal exits
/// 128 + its number (SIGINT and SIGTERM exited 0), every way out removes its link
/// (SIGHUP left it), and a link to a pty number given again since is stale.
@Suite struct TetherSimEndingTests {
    /// Runs `tether-sim ARGUMENTS > /dev/full`; its exit status and stderr.
    static func runIntoAFullDevice(_ arguments: String) throws -> (status: Int32, errors: String) {
        let process = Process()
        let errors = Pipe()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "'\(TetherSimProcess.executableURL.path)' \(arguments) > /dev/full"]
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test(arguments: ["--help", "--version", "--list-profiles", "--generate-man", ""])
    func aFullStandardOutputIsAnIOError(arguments: String) throws {
        let link = temporaryPath("full")
        let (status, errors) = try Self.runIntoAFullDevice(arguments.isEmpty ? "--link '\(link)'" : arguments)
        #expect(status == 74, "\(errors)")
        #expect(errors == "Error: cannot write to standard output: No space left on device\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
    }

    /// Each signal that ends serving and its exit code.
    static let signals: [(Int32, Int32)] = [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129), (SIGQUIT, 131)]

    @Test(arguments: signals)
    func aSignalEndsWithItsCodeAndRemovesTheLink(signal: Int32, code: Int32) throws {
        let link = temporaryPath("signalled")
        let sim = try TetherSimProcess(["--link", link])
        _ = sim.readLine()
        #expect(sim.readLine() == "link: \(link)")
        kill(sim.process.processIdentifier, signal)
        #expect(sim.waitForExit() == code)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
    }

    /// Every device hung up for good: the end of the work, not a signal.
    @Test func everyDeviceGoneEndsWithZero() throws {
        let link = temporaryPath("gone")
        let sim = try TetherSimProcess(["--link", link, "--disconnect-after", "100"])
        _ = sim.readLine()
        #expect(sim.readLine() == "link: \(link)")
        let client = try PtyClient(path: link)
        #expect(client.readUntilHangUp(timeout: .seconds(10)) != nil)
        #expect(sim.waitForExit(timeout: .seconds(30)) == 0)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
    }

    /// A link left by a simulator killed with SIGKILL names a pty number that an
    /// unrelated process (here python3) got afterwards: "served by python3 (pid …)", 69.
    @Test func aLinkToAPtyNumberGivenAgainIsReplaced() throws {
        let holder = Process()
        let output = Pipe()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c", "import os, pty, time; m, s = pty.openpty(); print(os.ttyname(s), flush=True); time.sleep(60)",
        ]
        holder.standardOutput = output
        try holder.run()
        defer { holder.terminate() }
        var line: [UInt8] = []
        while true {
            let byte = try #require(try output.fileHandleForReading.read(upToCount: 1)?.first)
            if byte == 10 { break }
            line.append(byte)
        }
        let reused = String(decoding: line, as: UTF8.self)
        let link = temporaryPath("reused")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: reused)
        // Made an hour ago, by the simulator that had that number then.
        var times = [timespec(tv_sec: time(nil) - 3600, tv_nsec: 0), timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, link, &times, AT_SYMLINK_NOFOLLOW) == 0)

        let sim = try TetherSimProcess(["--link", link])
        defer { sim.process.terminate() }
        let device = try #require(sim.readLine()).dropFirst("device: ".count)
        #expect(sim.readLine() == "link: \(link)", "\(sim.process.isRunning ? "" : sim.drain().errors)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == String(device))
    }
}
