import Foundation
import Glibc
import Testing
import TetherSimulator

/// What a new user of `tether-sim` hit: a second simulator taking over a live link,
/// equal serial numbers, concatenated AT commands refused, lenient profile JSON, and no
/// new `device:` line after a reappearance.
@Suite struct TetherSimNewUserTests {
    /// A second `tether-sim --link P` silently took over a live simulator's link and
    /// deleted it on exit, leaving the first unreachable.
    @Test func secondSimulatorRefusesALiveLink() throws {
        let link = temporaryPath("shared")
        let first = try TetherSimProcess(["--link", link])
        defer { first.process.terminate() }
        let device = try #require(first.readLine()).dropFirst("device: ".count)
        #expect(first.readLine() == "link: \(link)")

        let second = try TetherSimProcess(["--link", link])
        #expect(second.waitForExit() == 69)
        let errors = second.drain().errors
        #expect(
            errors.hasPrefix(
                "Error: cannot create the link '\(link)': it points to \(device), a live device, served by "),
            "\(errors)")
        #expect(errors.contains("(pid \(first.process.processIdentifier))"), "\(errors)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == String(device))
        let client = try PtyClient(path: link)
        client.send("*IDN?\r")
        #expect(client.readLine() == "TETHER,ENV-1,SIM0001,1.0")
    }

    /// A link left by a simulator that is gone is stale and still replaced.
    @Test func staleLinkIsReplaced() throws {
        let link = temporaryPath("stale")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/pts/999999")
        let sim = try TetherSimProcess(["--link", link])
        defer { sim.process.terminate() }
        _ = sim.readLine()
        #expect(sim.readLine() == "link: \(link)")
    }

    /// `tether-sim --count N` gave every device the serial `SIM0001`.
    @Test func countNumbersTheSerials() throws {
        let sim = try TetherSimProcess(["--count", "3"])
        defer { sim.process.terminate() }
        let devices = (0..<3).compactMap { _ in sim.readLine()?.dropFirst("device: ".count) }
        var identities: [String?] = []
        for device in devices {
            let client = try PtyClient(path: String(device))
            client.send("*IDN?\r")
            identities.append(client.readLine())
        }
        #expect(
            identities == ["TETHER,ENV-1,SIM0001,1.0", "TETHER,ENV-1,SIM0002,1.0", "TETHER,ENV-1,SIM0003,1.0"])
    }

    /// After `--reappear-after`, no new `device:` line was printed.
    @Test func reappearanceIsAnnounced() throws {
        let sim = try TetherSimProcess(["--disconnect-after", "200", "--reappear-after", "100"])
        defer { sim.process.terminate() }
        let first = try #require(sim.readLine())
        #expect(sim.readLine()?.hasPrefix("tether options: ") == true, "the options follow the first device line")
        let client = try PtyClient(path: String(first.dropFirst("device: ".count)))
        #expect(client.readUntilHangUp(timeout: .seconds(10)) != nil)
        let second = try #require(sim.readLine(timeout: .seconds(20)))
        #expect(second.hasPrefix("device: /dev/pts/"))
    }

    /// The `at-modem` profile refused `AT+CSQ;+CREG?`, which docs/DIALECTS.md uses.
    @Test func atModemTakesConcatenatedCommands() throws {
        let simulator = try Simulator(device: try SimulatorProfiles.device(named: "at-modem"))
        defer { simulator.stop() }
        let client = try PtyClient(path: simulator.devicePath)
        client.send("AT+CSQ;+CREG?\r")
        var lines: [String] = []
        while lines.last != "OK", lines.count < 8, let line = client.readLine() {
            if !line.isEmpty && !line.hasPrefix("AT") { lines.append(line) }
        }
        #expect(lines == ["+CSQ: 20,99", "+CREG: 0,1", "OK"])
    }

    /// A profile with a trailing comma was accepted.
    @Test func profileWithATrailingCommaIsRefused() throws {
        let text = #"{"dialect": "line", "commands": [{"match": "X", "reply": "Y"},]}"#
        #expect {
            try DeviceProfile(data: Array(text.utf8), file: "comma.json", defaultName: "comma")
        } throws: { error in
            (error as? ProfileError)?.description
                == "comma.json: line 1, column 62: not valid JSON: a comma must be followed by another value (remove the trailing comma)"
        }
    }
}
