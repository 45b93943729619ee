import Foundation
import Glibc
import Synchronization
import Testing

@testable import TetherSerial

/// UUCP lock files (`LCK..<name>`, HDB format), as minicom and ser2net take them: with
/// minicom on a port, `tether query` opened it anyway and the two split its bytes.
/// Each test uses a folder of its own as the lock directory.
@Suite struct UUCPLockFileTests {
    let folder: String
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("locks-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    }

    /// The lock file of `pty` in the test's folder.
    func lockPath(_ pty: PseudoTerminal) -> String {
        "\(folder)/LCK..\(pty.slavePath.split(separator: "/").last!)"
    }

    func open(_ pty: PseudoTerminal, directory: String? = nil) throws(SerialError) -> SerialPort {
        try SerialPort.open(
            pty.slavePath, configuration: SerialConfiguration(baudRate: 115_200),
            options: SerialPort.OpenOptions(lockDirectory: directory ?? folder))
    }

    /// `pid` as HDB writes it: 10 characters, right-aligned, and a newline.
    static func hdb(_ pid: pid_t) -> String {
        let text = String(pid)
        return String(repeating: " ", count: 10 - text.count) + text + "\n"
    }

    @Test func theLockFileIsHeldWhileOpenAndRemovedOnClose() throws {
        let pty = try PseudoTerminal()
        let port = try open(pty)
        #expect(try String(contentsOfFile: lockPath(pty), encoding: .utf8) == Self.hdb(getpid()))
        port.close()
        #expect(!FileManager.default.fileExists(atPath: lockPath(pty)))
    }

    /// A process with `pty` open (its standard input), as minicom has.
    static func holder(of pty: PseudoTerminal) throws -> Process {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "exec sleep 60 < \(pty.slavePath)"]
        try holder.run()
        let fd = "/proc/\(holder.processIdentifier)/fd/0"
        let name = "/proc/\(holder.processIdentifier)/comm"
        // Until the shell has opened the pty and become sleep: the pty is open in the
        // shell before its exec, and a test under load once read the name `sh`.
        for _ in 0..<1000
        where (try? FileManager.default.destinationOfSymbolicLink(atPath: fd)) != pty.slavePath
            || (try? String(contentsOfFile: name, encoding: .utf8)) != "sleep\n"
        {
            usleep(10_000)
        }
        return holder
    }

    /// A fake minicom: a live process (`sleep`) with the port open, named in the lock file.
    @Test func aLiveHolderMakesThePortBusyAndIsNamed() throws {
        let pty = try PseudoTerminal()
        let holder = try Self.holder(of: pty)
        defer { holder.terminate() }
        try Self.hdb(holder.processIdentifier).write(toFile: lockPath(pty), atomically: true, encoding: .utf8)

        let error = #expect(throws: SerialError.self) { try open(pty) }
        guard case .busy(let path, let name) = error else {
            Issue.record("expected busy, got \(String(describing: error))")
            return
        }
        #expect(path == pty.slavePath)
        #expect(name == "sleep (pid \(holder.processIdentifier)), lock file \(lockPath(pty))")
        #expect(error?.description.contains("port busy (in use by sleep (pid") == true)
        // The holder's file is left alone.
        #expect(try String(contentsOfFile: lockPath(pty), encoding: .utf8) == Self.hdb(holder.processIdentifier))
    }

    /// A lock file left by a process that is gone (killed with SIGKILL), or whose pid a
    /// process without the port now has (here this test's parent), is stale.
    @Test(arguments: ["gone", "reused", "garbage\n", ""])
    func aStaleLockFileIsReplaced(content: String) throws {
        let pty = try PseudoTerminal()
        var text = content
        if content == "gone" {
            let gone = Process()
            gone.executableURL = URL(fileURLWithPath: "/bin/true")
            try gone.run()
            gone.waitUntilExit()
            text = Self.hdb(gone.processIdentifier)
        } else if content == "reused" {
            text = Self.hdb(getppid())
        }
        try text.write(toFile: lockPath(pty), atomically: true, encoding: .utf8)
        let port = try open(pty)
        defer { port.close() }
        #expect(try String(contentsOfFile: lockPath(pty), encoding: .utf8) == Self.hdb(getpid()))
    }

    /// Without a folder to write in, the port opens anyway and the handler hears of it
    /// once per process.
    @Test func noLockDirectoryWarnsOnceAndGoesOn() throws {
        let heard = Mutex<[String]>([])
        SerialPort.setLockFileWarningHandler { message in heard.withLock { $0.append(message) } }
        defer { SerialPort.setLockFileWarningHandler { _ in } }
        let missing = "\(folder)/missing"
        for _ in 0..<2 {
            let pty = try PseudoTerminal()
            let port = try open(pty, directory: missing)
            port.close()
        }
        let messages = heard.withLock { $0 }
        // Once per process: where /run/lock cannot be written, another test's open may
        // have had the one warning already.
        let othersCannotWarn = access(SerialPort.OpenOptions.defaultLockDirectory, W_OK) == 0
        #expect(othersCannotWarn ? messages.count == 1 : messages.count <= 1)
        if let message = messages.first {
            #expect(message.hasPrefix("cannot create the lock file \(missing)/LCK.."))
            #expect(message.contains("(No such file or directory)"))
        }
    }
}
