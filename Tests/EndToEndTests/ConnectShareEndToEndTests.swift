import Foundation
import Glibc
import Testing
import TetherSimulator

/// `connect --socket unix:PATH` and `--pty` (tio's `--socket`): a second program, here
/// `socat`, sees the bytes the device sends and its bytes reach the device, while the
/// session goes on in its terminal (tmux).
@Suite(.serialized) struct ConnectShareEndToEndTests {
    static let socat = "/usr/bin/socat"

    @Test func aSecondClientSeesTheBytesAndItsBytesReachTheDevice() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.socat), "scripts/install-deps --test installs socat")
        let folder = try TemporaryFolder()
        let simulator = try ConnectEndToEndTests.simulator("env", in: folder)
        defer { simulator.stop() }
        let socket = folder.path("session.sock")
        let terminal = try ConnectEndToEndTests.connect(folder, ["--socket", "unix:\(socket)"])
        #expect(terminal.waitForScreen(containing: "sharing the session on unix:\(socket)"), "\(terminal.screen)")
        #expect(terminal.waitForScreen(containing: "line mode"))
        let client = try Subprocess(path: Self.socat, ["-", "UNIX-CONNECT:\(socket)"])
        defer { client.send(SIGTERM) }
        // Typed in the terminal: the client sees the reply's bytes.
        terminal.type("*IDN?")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "*IDN? → TETHER,ENV-1"))
        #expect(client.waitForOutput(containing: "TETHER,ENV-1,SIM0001,1.0\r\n"), "\(client.stdoutSoFar)")
        // Written by the client: it reaches the device, and both see the reply.
        client.write("SETP?\n")
        #expect(
            waitUntil { ConnectEndToEndTests.received(folder) == "*IDN?\nSETP?\n" },
            "\(ConnectEndToEndTests.received(folder))")
        #expect(client.waitForOutput(containing: "22.0\r\n"), "\(client.stdoutSoFar)")
        #expect(terminal.waitForScreen(containing: "22.0"), "\(terminal.screen)")
        #expect(terminal.quitsCleanly())
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket's file is removed at the end")
    }

    /// The pty's path is said; a program reading it gets the device's bytes.
    @Test func aPseudoTerminalGetsTheBytes() throws {
        let folder = try TemporaryFolder()
        let simulator = try ConnectEndToEndTests.simulator("env", in: folder)
        defer { simulator.stop() }
        let session = try Subprocess("tether", ["connect", folder.path("device"), "--pty"])
        defer { session.send(SIGTERM) }
        #expect(
            waitUntil { session.stderrSoFar.contains("sharing the session on /dev/pts/") }, "\(session.stderrSoFar)")
        let path = try #require(session.stderrSoFar.firstMatch(of: /sharing the session on (\/dev\/pts\/\d+)/)?.1)
        let reader = try Subprocess(path: "/bin/cat", [String(path)])
        defer { reader.send(SIGTERM) }
        session.write("*IDN?\n")
        #expect(reader.waitForOutput(containing: "TETHER,ENV-1,SIM0001,1.0\r\n"), "\(reader.stdoutSoFar)")
    }

    @Test(arguments: [
        (["--socket", "tcp:7000"], 64, "Please provide unix:PATH, the path of a Unix domain socket to make."),
        (
            ["--socket", "unix:/nowhere/at/all.sock"], 73,
            "Error: cannot share the session: cannot listen on /nowhere/at/all.sock"
        ),
    ])
    func aSocketThatCannotBeIsRefused(arguments: [String], status: Int32, message: String) throws {
        let result = try Subprocess.run("tether", ["connect", "--sim"] + arguments, stdin: "")
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
