import Foundation
import Glibc
import Testing

/// A link to a pty whose program ended without removing it (`/tmp/devA →
/// /dev/pts/1`) is not reopened when the kernel gives `/dev/pts/1` to another pty:
/// `monitor` used to reconnect to it and read another program's terminal. A link made
/// again (as `tether-sim --link` does when it comes back) is reopened.
@Suite struct PseudoTerminalReuseEndToEndTests {
    /// A test-owned pty: the master, and the slave's path.
    private static func openPseudoTerminal() throws -> (master: Int32, path: String) {
        var master: Int32 = 0
        var slave: Int32 = 0
        var name = [CChar](repeating: 0, count: 64)
        try #require(openpty(&master, &slave, &name, nil, nil) == 0)
        close(slave)
        // Not inherited by tether: closing it must hang up the slave.
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        return (master, String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    @Test func aStaleLinkToAReusedPseudoTerminalIsNotReopened() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("devA")
        let first = try Self.openPseudoTerminal()
        try #require(symlink(first.path, link) == 0)
        let monitor = try Subprocess("tether", ["monitor", link, "--format", "json"])
        defer { monitor.send(SIGTERM) }
        #expect(monitor.waitForOutput(containing: #""type":"connected""#))

        close(first.master)
        #expect(monitor.waitForOutput(containing: #""type":"reconnecting""#))
        // The kernel gives the lowest free index: usually the same /dev/pts/N.
        let second = try Self.openPseudoTerminal()
        defer { close(second.master) }
        let stranger = Array("STRANGER\r\n".utf8)
        #expect(write(second.master, stranger, stranger.count) == stranger.count)
        if second.path == first.path {
            // Several reopen attempts (100 ms, doubling up to 2 s) fit in 4 s.
            sleep(4)
            #expect(!monitor.stdoutSoFar.contains(#""type":"reconnected""#), "\(monitor.stdoutSoFar)")
        }

        // The device's program comes back and makes its link again.
        try #require(unlink(link) == 0 && symlink(second.path, link) == 0)
        #expect(monitor.waitForOutput(containing: #""type":"reconnected""#))
    }
}
