import Foundation
import Glibc
import Testing
import TetherSimulator

/// With minicom on a port, `tether query` opened it anyway and the two split the
/// device's bytes: tether honours UUCP lock files in /run/lock and takes one itself
/// (docs/HARDWARE.md, "One port, one tether: exclusive access").
@Suite(.enabled(if: access("/run/lock", W_OK) == 0, "needs /run/lock to be writable"))
struct UUCPLockEndToEndTests {
    /// `/run/lock/LCK..N` for the simulator's `/dev/pts/N`.
    static func lockPath(_ simulator: Simulator) -> String {
        "/run/lock/LCK..\(simulator.devicePath.split(separator: "/").last!)"
    }

    @Test func aLiveHolderOfTheLockFileMakesThePortBusy() throws {
        let folder = try TemporaryFolder()
        let simulator = try Simulator(link: folder.path("device"))
        defer { simulator.stop() }
        // A fake minicom: the port open (standard input) and named in the lock file.
        let minicom = try Subprocess(path: "/bin/sh", ["-c", "exec sleep 60 < \(simulator.devicePath)"])
        defer { minicom.send(SIGKILL) }
        let input = "/proc/\(minicom.pid)/fd/0"
        #expect(
            waitUntil { (try? FileManager.default.destinationOfSymbolicLink(atPath: input)) == simulator.devicePath })
        let lock = Self.lockPath(simulator)
        let pid = String(minicom.pid)
        try (String(repeating: " ", count: 10 - pid.count) + pid + "\n").write(
            toFile: lock, atomically: true, encoding: .utf8)
        defer { unlink(lock) }

        let result = try Subprocess.run("tether", ["query", folder.path("device"), "*IDN?"])
        #expect(result.status == 69)
        #expect(
            result.stderr
                == "Error: \(folder.path("device")): port busy (in use by sleep (pid \(pid)), lock file \(lock))\n")
    }

    @Test func tetherHoldsALockFileWhileItHasThePort() throws {
        let folder = try TemporaryFolder()
        let simulator = try Simulator(link: folder.path("device"))
        defer { simulator.stop() }
        let monitor = try Subprocess("tether", ["monitor", folder.path("device")])
        #expect(monitor.waitForOutput(containing: "!READING"))
        let text = try String(contentsOfFile: Self.lockPath(simulator), encoding: .utf8)
        #expect(text == String(repeating: " ", count: 10 - String(monitor.pid).count) + "\(monitor.pid)\n")
        monitor.send(SIGTERM)
        #expect(monitor.wait().status == 143)
        #expect(!FileManager.default.fileExists(atPath: Self.lockPath(simulator)))
    }

    /// `run` ended by a signal left `/run/lock/LCK..N` behind with its dead pid: it
    /// exits at once on a signal, and its lock file goes with it.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func runEndedByASignalRemovesItsLockFile(signal: Int32, code: Int32) throws {
        let folder = try TemporaryFolder()
        let simulator = try Simulator(link: folder.path("device"))
        defer { simulator.stop() }
        try "emit({ ready = true })\nsleep(60000)\n".write(
            toFile: folder.path("sl.lua"), atomically: true, encoding: .utf8)
        let run = try Subprocess("tether", ["run", folder.path("sl.lua"), "--port", folder.path("device")])
        #expect(run.waitForOutput(containing: "EMIT"), "\(run.stdoutSoFar)")
        #expect(FileManager.default.fileExists(atPath: Self.lockPath(simulator)))
        run.send(signal)
        #expect(run.wait(timeout: 30).status == code)
        #expect(!FileManager.default.fileExists(atPath: Self.lockPath(simulator)))
    }
}
