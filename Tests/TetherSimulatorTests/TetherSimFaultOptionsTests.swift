import Foundation
import Glibc
import Testing

/// `tether-sim`'s fault, transcript and several-device options, and the proof that
/// another serial program (pyserial) can use its pty.
@Suite struct TetherSimFaultOptionsTests {
    /// Runs a pyserial client (Debian's `python3-serial`, installed by
    /// `scripts/install-deps --test`) that sends `*IDN?` to `path` and prints the reply.
    private func pyserialIdentify(_ path: String) throws -> String {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [
            "-c",
            """
            import sys, serial
            port = serial.Serial(sys.argv[1], 115200, timeout=5)
            port.write(b"*IDN?\\n")
            sys.stdout.write(port.readline().decode("latin-1"))
            port.close()
            """,
            path,
        ]
        let output = Pipe()
        let errors = Pipe()
        python.standardOutput = output
        python.standardError = errors
        try python.run()
        python.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
            python.terminationStatus == 0,
            "pyserial failed (install python3-serial: scripts/install-deps --test): \(problems)")
        return text
    }

    /// Reads the `device:` and `link:` lines of `count` devices.
    private func paths(of sim: TetherSimProcess, count: Int) -> [(device: String, link: String)] {
        (0..<count).compactMap { _ in
            guard let device = sim.readLine(), let link = sim.readLine() else { return nil }
            return (String(device.dropFirst("device: ".count)), String(link.dropFirst("link: ".count)))
        }
    }

    @Test func pyserialOpensTheLinkAndGetsTheIdentity() throws {
        let link = temporaryPath("pyserial")
        let sim = try TetherSimProcess(["--link", link])
        defer { sim.process.terminate() }
        #expect(paths(of: sim, count: 1).first?.link == link)
        #expect(try pyserialIdentify(link) == "TETHER,ENV-1,SIM0001,1.0\r\n")
    }

    @Test func countTwoGivesTwoWorkingNumberedPorts() throws {
        let link = temporaryPath("pair")
        let sim = try TetherSimProcess(["--count", "2", "--link", link])
        defer { sim.process.terminate() }
        let ports = paths(of: sim, count: 2)
        #expect(ports.map(\.link) == [link + "-1", link + "-2"])
        #expect(Set(ports.map(\.device)).count == 2)
        for (index, port) in ports.enumerated() {
            #expect(try pyserialIdentify(port.link) == "TETHER,ENV-1,SIM000\(index + 1),1.0\r\n")
        }
    }

    @Test func logRecordsBothDirectionsWithTimestamps() throws {
        let link = temporaryPath("logged")
        let log = temporaryPath("logged.log")
        defer { unlink(log) }
        let sim = try TetherSimProcess(["--link", link, "--log", log, "--latency", "20"])
        _ = paths(of: sim, count: 1)
        #expect(try pyserialIdentify(link) == "TETHER,ENV-1,SIM0001,1.0\r\n")
        sim.process.terminate()
        #expect(sim.waitForExit() == 143)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let stamp = try Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z [<>*] "#)
        #expect(lines.allSatisfy { $0.contains(stamp) })
        #expect(lines.contains { $0.hasSuffix(" < 2a 49 44 4e 3f 0a  \"*IDN?\\n\"") })
        #expect(lines.contains { $0.contains(" > ") && $0.hasSuffix("  \"TETHER,ENV-1,SIM0001,1.0\\r\\n\"") })
        #expect(lines.contains { $0.hasSuffix(" * client disconnected") })
    }

    @Test func helpListsEveryFaultOptionWithExamples() throws {
        let sim = try TetherSimProcess(["--help"])
        #expect(sim.waitForExit() == 0)
        let help = sim.drain().output
        for option in [
            "--latency", "--jitter", "--pace-baud", "--split", "--garbage", "--drop", "--duplicate",
            "--disconnect-after", "--disconnect-after-lines", "--reappear-after", "--burst",
            "--sequence-numbers", "--count", "--log",
        ] {
            #expect(help.contains("  \(option) "), "\(option) missing from --help")
        }
        #expect(help.contains("EXAMPLES:"))
    }

    @Test(arguments: [
        ["--drop", "1.5"], ["--garbage", "x"], ["--latency", "-1"], ["--burst", "1000"], ["--burst", "10@0"],
        ["--reappear-after", "100"], ["--disconnect-after", "10", "--disconnect-after-lines", "3"],
        ["--count", "0"], ["--count", "3", "--link", "a", "--link", "b"], ["--split"],
    ])
    func rejectsBadFaultOptionsWithExit64(arguments: [String]) throws {
        let sim = try TetherSimProcess(arguments)
        #expect(sim.waitForExit() == 64)
        let (output, errors) = sim.drain()
        #expect(output.isEmpty)
        #expect(errors.hasPrefix("Error: "))
    }
}
