import Foundation
import Glibc
import Testing
import TetherSimulator

/// Real hardware life, simulated: the device going away and coming back at the same
/// link, waiting for a port, two tethers on one port, modem lines and udev rules on a
/// pty.
@Suite(.serialized) struct HardwareEndToEndTests {
    /// User + system CPU seconds a running process has used (`/proc/<pid>/stat`).
    static func cpuSeconds(of pid: pid_t) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command name: state is field 3, utime 14 and stime 15.
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// tether-sim killed and restarted at the same --link: monitor reports the
    /// disconnect and the reconnect, keeps printing notifications, and costs next to
    /// no CPU while it waits.
    @Test func monitorRidesThroughTheDeviceGoingAwayAndComingBack() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("device")
        let first = try Subprocess("tether-sim", ["--link", link])
        #expect(first.waitForOutput(containing: link))
        let monitor = try Subprocess("tether", ["monitor", link, "--format", "json"])
        #expect(monitor.waitForOutput(containing: #""type":"notification""#))
        first.send(SIGTERM)
        _ = first.wait()
        #expect(monitor.waitForOutput(containing: #""type":"reconnecting""#, timeout: 5))

        let before = Self.cpuSeconds(of: monitor.pid)
        sleep(3)
        let waiting = Self.cpuSeconds(of: monitor.pid) - before
        #expect(waiting < 0.3, "monitor used \(waiting) s of CPU in 3 s of waiting")

        let second = try Subprocess("tether-sim", ["--link", link])
        #expect(second.waitForOutput(containing: link))
        #expect(monitor.waitForOutput(containing: #""type":"reconnected""#, timeout: 10))
        #expect(JSONLines.waitForNotificationAfterReconnect(of: monitor), "no notification after the reconnect")
        monitor.send(SIGTERM)
        let result = monitor.wait()
        second.send(SIGTERM)
        _ = second.wait()
        #expect(result.status == 143, "\(result.stderr)")
        let types = try JSONLines.types(result.stdout)
        let lost = try #require(types.firstIndex(of: "disconnected"))
        #expect(types[..<lost].contains("notification"))
        #expect(Array(types[lost...].prefix(3)) == ["disconnected", "reconnecting", "reconnected"])
        let reconnected = try #require(JSONLines.parse(result.stdout).first { $0["type"] as? String == "reconnected" })
        #expect(reconnected["settings"] as? String == "115200 8N1")
        #expect((reconnected["attempts"] as? Int ?? 0) >= 1)
    }

    /// A command in flight when the device goes away fails with "disconnected"; after
    /// the device is back, the next command gets its reply (tether connect).
    @Test func connectFailsTheRequestInFlightAndWorksAgainAfterReconnect() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("device")
        let first = try Simulator(
            device: ScriptedDevice(rules: [.init(on: "SLOW?", send: [], hangUpAfter: .milliseconds(300))]), link: link)
        let connect = try Subprocess("tether", ["connect", link, "--format", "json", "--timeout", "20000"])
        #expect(waitUntil { first.isClientConnected })
        connect.write("SLOW?\n")
        #expect(connect.waitForOutput(containing: #""type":"reconnecting""#, timeout: 10))
        first.stop()
        let second = try Simulator(
            device: ScriptedDevice(rules: [.init(on: "PING", send: [.init("PONG\r\n")])]), link: link)
        #expect(connect.waitForOutput(containing: #""type":"reconnected""#, timeout: 10))
        connect.write("PING\n")
        #expect(connect.waitForOutput(containing: "PONG", timeout: 10))
        connect.closeInput()
        let result = connect.wait()
        second.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try JSONLines.parse(result.stdout)
        let failed = try #require(objects.first { $0["type"] as? String == "failed" })
        #expect(failed["command"] as? String == "SLOW?")
        #expect((failed["reason"] as? String ?? "").contains("disconnected"))
        let reply = try #require(objects.first { $0["type"] as? String == "reply" })
        #expect(reply["lines"] as? [String] == ["PONG"])
    }

    /// query never reconnects: a hang-up during its request ends it with 74 at once,
    /// not at its 10 s timeout.
    @Test func queryFailsPromptlyWhenTheDeviceGoesAwayMidRequest() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("device")
        let simulator = try Simulator(
            device: ScriptedDevice(rules: [
                .init(on: "SERIAL?", send: [.init("3520990")], hangUpAfter: .milliseconds(300))
            ]), link: link)
        let started = Date()
        let result = try Subprocess.run("tether", ["query", link, "--timeout", "10000", "SERIAL?"])
        let elapsed = Date().timeIntervalSince(started)
        simulator.stop()
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stdout.contains("disconnected"))
        #expect(result.stdout.contains("3520990"))
        #expect(elapsed < 8, "query took \(elapsed) s")
    }

    /// --wait: the link appears 1 s after tether started.
    @Test func waitOpensALinkCreatedOneSecondLater() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("later")
        let monitor = try Subprocess("tether", ["monitor", link, "--wait", "--count", "1"])
        sleep(1)
        let simulator = try Simulator(link: link)
        let result = monitor.wait(timeout: 30)
        simulator.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("!READING temp="))
        #expect(result.cpuSeconds < 1.0, "used \(result.cpuSeconds) s of CPU")
    }

    @Test func waitTimeoutEndsWithPortNotFound() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("never")
        let started = Date()
        let result = try Subprocess.run("tether", ["query", link, "--wait-timeout", "1", "*IDN?"])
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 66)
        #expect(result.stderr.contains("\(link): no such device (waited 1.0 s)"))
        #expect(elapsed >= 1 && elapsed < 10)
    }

    /// A second tether on the port gets "port busy" naming the first, exit 69, and
    /// leaves the first one's settings alone.
    @Test func secondTetherOnTheSamePortIsRefusedAndChangesNothing() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("device")
        let simulator = try Simulator(link: link)
        let first = try Subprocess("tether", ["monitor", link, "--baud", "115200"])
        #expect(first.waitForOutput(containing: "!READING"))
        let second = try Subprocess.run("tether", ["query", link, "--baud", "9600", "*IDN?"])
        var attributes = try #require(simulator.clientAttributes)
        let speed = cfgetospeed(&attributes)
        first.send(SIGTERM)
        _ = first.wait()
        simulator.stop()
        #expect(second.status == 69)
        #expect(second.stderr.contains("\(link): port busy (in use by tether (pid \(first.pid)))"), "\(second.stderr)")
        #expect(speed == speed_t(B115200))
    }

    /// Modem lines on a pty: emulated, documented values; --dtr/--rts are applied.
    @Test func linesOnAPseudoTerminalAreEmulated() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("device")
        let simulator = try Simulator(link: link)
        let plain = try Subprocess.run("tether", ["lines", link])
        let set = try Subprocess.run("tether", ["lines", link, "--dtr", "off", "--rts", "on", "--format", "json"])
        let reset = try Subprocess.run("tether", ["query", link, "--pulse-dtr", "20", "--break", "10", "*IDN?"])
        simulator.stop()
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout == "DTR on  RTS on  CTS on  DSR on  DCD on  RI off  (pseudo-terminal: emulated)\n")
        let object = try #require(try JSONLines.parse(set.stdout).first)
        #expect(object["dtr"] as? Bool == false)
        #expect(object["rts"] as? Bool == true)
        #expect(object["emulated"] as? Bool == true)
        #expect(reset.status == 0, "\(reset.stderr)")
    }

    @Test func udevRuleRefusesAPseudoTerminalAndAMissingPort() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("device")
        let simulator = try Simulator(link: link)
        let pty = try Subprocess.run("tether", ["udev-rule", link, "--name", "psu"])
        simulator.stop()
        let missing = try Subprocess.run("tether", ["udev-rule", folder.path("none"), "--name", "psu"])
        let badName = try Subprocess.run("tether", ["udev-rule", folder.path("none"), "--name", "/dev/psu"])
        #expect(pty.status == 69)
        #expect(pty.stderr.contains("is not a USB serial adapter"))
        #expect(missing.status == 66)
        #expect(badName.status == 64)
    }

    @Test func matchWithNoSuchAdapterListsThePortsPresent() throws {
        let result = try Subprocess.run("tether", ["query", "--match", "ffff:fffe:NOPE", "*IDN?"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("no serial port matches 'ffff:fffe:NOPE'. Ports present:"))
    }
}
