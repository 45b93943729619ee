import Foundation
import Glibc
import Testing
import TetherSimulator

/// Ports exported over TCP by Debian's ser2net (`tcp://` raw, `rfc2217://` telnet with
/// RFC 2217), serving an in-process simulator's pty, all on loopback.
@Suite(.serialized) struct RemotePortEndToEndTests {
    @Test(arguments: [false, true]) func queryWorksThroughSer2net(telnet: Bool) throws {
        let folder = try TemporaryFolder()
        let simulator = try Simulator()
        defer { simulator.stop() }
        let server = try Ser2net(exporting: simulator.devicePath, in: folder)
        let address = telnet ? server.telnetAddress : server.rawAddress
        let result = try Subprocess.run("tether", ["query", address, "*IDN?", "SETP 25", "SETP?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("*IDN? → TETHER,ENV-1,SIM0001,1.0"), "\(result.stdout)")
        #expect(result.stdout.contains("SETP? → 25.0"), "\(result.stdout)")
        #expect(!result.stderr.contains("Warning"), "\(result.stderr)")
        let settings = telnet ? "115200 8N1" : "the server's settings"
        #expect(result.stderr.contains("connected to \(address) (\(settings))"), "\(result.stderr)")
    }

    /// `tether lines` over RFC 2217 reads the lines the server reports (ser2net on a pty
    /// reports none asserted); tcp:// has none to read.
    @Test func linesAreReadBackOverRFC2217() throws {
        let folder = try TemporaryFolder()
        let simulator = try Simulator()
        defer { simulator.stop() }
        let server = try Ser2net(exporting: simulator.devicePath, in: folder)
        let result = try Subprocess.run("tether", ["lines", server.telnetAddress, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let record = try #require(JSONLines.parse(result.stdout).first)
        #expect(record["type"] as? String == "lines")
        #expect(record["port"] as? String == server.telnetAddress)
        #expect(record["emulated"] as? Bool == false)
        #expect(record["cts"] as? Bool == false)

        let raw = try Subprocess.run("tether", ["lines", server.rawAddress])
        #expect(raw.status == 64)
        #expect(
            raw.stderr.contains("Error: tcp:// carries no modem lines; the server must speak RFC 2217 (rfc2217://)"))
    }

    @Test func monitorAndAScriptWorkOverRFC2217() throws {
        let folder = try TemporaryFolder()
        let simulator = try Simulator()
        defer { simulator.stop() }
        let server = try Ser2net(exporting: simulator.devicePath, in: folder)
        let monitor = try Subprocess.run(
            "tether", ["monitor", server.telnetAddress, "--count", "2", "--format", "json"], timeout: 30)
        #expect(monitor.status == 0, "\(monitor.stderr)")
        #expect(try JSONLines.types(monitor.stdout).filter { $0 == "notification" }.count == 2, "\(monitor.stdout)")

        let script = folder.path("check.txt")
        try "*IDN?  =~ ^TETHER,ENV-1,\nSETP 20 == OK\nSETP?  == 20.0\n".write(
            toFile: script, atomically: true, encoding: .utf8)
        let run = try Subprocess.run("tether", ["run", script, "--port", "chamber=\(server.telnetAddress)"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    /// The baud rate set over RFC 2217 reaches the pty ser2net opened: the simulator
    /// reads the slave's termios from the master side. (A pty keeps CS8 without parity
    /// whatever it is told, so data bits and parity are checked through ser2net's
    /// answers: a setting it did not apply would be a warning.)
    @Test func serialSettingsOverRFC2217ReachThePseudoTerminal() throws {
        let folder = try TemporaryFolder()
        let simulator = try Simulator()
        defer { simulator.stop() }
        let server = try Ser2net(exporting: simulator.devicePath, in: folder)
        let monitor = try Subprocess(
            "tether", ["monitor", server.telnetAddress, "--baud", "9600", "--data-bits", "7", "--parity", "even"])
        defer {
            monitor.send(SIGTERM)
            _ = monitor.wait()
        }
        let applied = waitUntil {
            guard var attributes = simulator.clientAttributes else { return false }
            return cfgetospeed(&attributes) == speed_t(B9600)
        }
        #expect(applied, "the pty's termios: \(String(describing: simulator.clientAttributes))")
        #expect(waitUntil { monitor.stderrSoFar.contains("connected to \(server.telnetAddress) (9600 7E1)") })
        #expect(!monitor.stderrSoFar.contains("warning"), "\(monitor.stderrSoFar)")
    }

    /// connect's escape keys act on a remote port through RFC 2217 during the session:
    /// a baud rate change reaches the pty, DTR and break are answered, and the
    /// session goes on (commands still get their replies).
    @Test func connectChangesTheBaudRateOfARemotePortDuringTheSession() throws {
        let folder = try TemporaryFolder()
        let simulator = try Simulator()
        defer { simulator.stop() }
        let server = try Ser2net(exporting: simulator.devicePath, in: folder)
        let terminal = try TmuxTerminal(
            ["tether", "connect", server.telnetAddress], environment: ["XDG_STATE_HOME": folder.path("state")])
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.press("C-t", "B")
        #expect(terminal.waitForScreen(containing: "baud rate:"))
        terminal.type("57600")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "baud rate 57600"), "\(terminal.screen)")
        #expect(
            waitUntil { simulator.clientAttributes.map { cfgetospeed([$0]) } == speed_t(B57600) },
            "the pty's termios: \(String(describing: simulator.clientAttributes))")
        terminal.press("C-t", "b")
        #expect(terminal.waitForScreen(containing: "break sent (250 ms)"), "\(terminal.screen)")
        terminal.type("*IDN?")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "*IDN? → TETHER,ENV-1"), "\(terminal.screen)")
        #expect(!terminal.screen.contains("disconnected"), "\(terminal.screen)")
        terminal.press("C-t", "q")
        #expect(terminal.waitForExit() == 0)
    }

    /// ser2net killed mid-session: monitor reports the disconnect, keeps trying while
    /// nothing listens, and reconnects when ser2net is back.
    @Test func monitorReconnectsWhenSer2netComesBack() throws {
        let folder = try TemporaryFolder()
        let simulator = try Simulator()
        defer { simulator.stop() }
        let server = try Ser2net(exporting: simulator.devicePath, in: folder)
        let monitor = try Subprocess("tether", ["monitor", server.telnetAddress, "--format", "json"])
        #expect(monitor.waitForOutput(containing: #""type":"notification""#))
        server.stop()
        #expect(monitor.waitForOutput(containing: #""type":"reconnecting""#, timeout: 10))
        sleep(1)
        try server.start()
        #expect(monitor.waitForOutput(containing: #""type":"reconnected""#, timeout: 15))
        #expect(JSONLines.waitForNotificationAfterReconnect(of: monitor), "no notification after the reconnect")
        monitor.send(SIGTERM)
        let result = monitor.wait()
        #expect(result.status == 143, "\(result.stderr)")
        let types = try JSONLines.types(result.stdout)
        let lost = try #require(types.firstIndex(of: "disconnected"))
        #expect(types[..<lost].contains("notification"))
        #expect(types[lost...].prefix(2) == ["disconnected", "reconnecting"])
    }

    /// A telnet server that refuses every option, RFC 2217 included: tether says so in
    /// a warning record after `connected` and carries on with raw data.
    @Test func aServerRefusingRFC2217IsReportedAndUsedRaw() throws {
        let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Harness/refusing_telnet_server.py").path
        let server = try Subprocess(path: "/usr/bin/python3", [harness])
        #expect(server.waitForOutput(containing: "port "))
        let port = try #require(server.stdoutSoFar.split(separator: "\n").first?.split(separator: " ").last)
        let address = "rfc2217://127.0.0.1:\(port)"
        let result = try Subprocess.run("tether", ["query", address, "--baud", "9600", "PING"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "warning: \(address): the server refused RFC 2217 serial port control (COM-PORT-OPTION); "
                    + "carrying on with raw data at the server's serial settings"), "\(result.stderr)")
        #expect(result.stdout.contains("PING → RAW PING"), "\(result.stdout)")
        #expect(result.stderr.contains("connected to \(address) (the server's settings)"), "\(result.stderr)")
        let served = server.wait(timeout: 30)
        #expect(served.stdout.contains("data 50494e470a"), "\(served.stdout)")
    }

    /// ser2net serves one client per port: a second one gets "Port already in use"
    /// and the connection closes. query must not exit 0 with no reply
    /// (it did: the device ended while tether took in the input waiting at open).
    @Test func aPortInUseOnTheServerIsADisconnectNotSuccess() throws {
        let folder = try TemporaryFolder()
        let simulator = try Simulator()
        defer { simulator.stop() }
        let server = try Ser2net(exporting: simulator.devicePath, in: folder)
        let holder = try Subprocess("tether", ["monitor", server.rawAddress])
        defer {
            holder.send(SIGTERM)
            _ = holder.wait()
        }
        #expect(holder.waitForOutput(containing: "!READING"))
        let result = try Subprocess.run("tether", ["query", server.rawAddress, "*IDN?"])
        #expect(result.status == 74, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("Port already in use"), "\(result.stdout)")
        #expect(result.stderr.contains("disconnected: \(server.rawAddress)"), "\(result.stderr)")

        let telnet = try Subprocess.run("tether", ["query", server.telnetAddress, "*IDN?"])
        #expect(telnet.status == 74, "\(telnet.stdout)\(telnet.stderr)")
        #expect(
            telnet.stderr.contains(
                "Error: \(server.telnetAddress): open failed: the server closed the connection: Port"),
            "\(telnet.stderr)")
        #expect(telnet.stderr.contains("already in use"), "\(telnet.stderr)")
    }

    @Test func aRemotePortNobodyServesIsAnIOError() throws {
        let port = try Ser2net.freePort()
        let result = try Subprocess.run("tether", ["query", "tcp://127.0.0.1:\(port)", "*IDN?"])
        #expect(result.status == 74)
        #expect(result.stderr.contains("Error: tcp://127.0.0.1:\(port): connect failed: Connection refused"))
    }

    @Test func lineOptionsAreRefusedOverRawTCP() throws {
        let result = try Subprocess.run("tether", ["query", "tcp://127.0.0.1:7000", "--break", "100", "*IDN?"])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains(
                "Error: '--break' needs a serial port or an rfc2217:// address; tcp:// carries only data"))
        let run = try Subprocess.run(
            "tether", ["run", "-", "--port", "psu=tcp://127.0.0.1:7000", "--dtr", "off"], stdin: "*IDN?\n")
        #expect(run.status == 64)
        #expect(
            run.stderr.contains(
                "Error: '--dtr' needs a serial port or an rfc2217:// address; tcp:// carries only data"),
            "\(run.stderr)")
    }
}
