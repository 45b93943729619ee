import Foundation
import Testing
import TetherSimulator

/// Zephyr's shell erasing its prompt before a log message, as its exact bytes come over
/// the line: the text view and JSON's `line` read the log line alone, as a terminal
/// leaves it; `line_hex` keeps every byte.
@Suite struct TerminalEditsEndToEndTests {
    typealias Chunk = ScriptedDevice.Chunk
    static let redraw =
        "uart:~$ k\u{1B}[9D\u{1B}[J[00:00:48.453,000] \u{1B}[0m<inf> net_core: iface up\u{1B}[0m\r\n"

    private func monitor(_ arguments: [String]) throws -> Subprocess.Result {
        let device = ScriptedDevice(onOpen: [
            Chunk("*** Booting Zephyr OS ***\r\n" + Self.redraw, after: .milliseconds(200))
        ])
        let simulator = try Simulator(device: device)
        defer { simulator.stop() }
        return try Subprocess.run(
            "tether", ["monitor", simulator.devicePath, "--count", "2"] + arguments, timeout: 120)
    }

    @Test func textShowsTheLogLineWithoutTheErasedPrompt() throws {
        let result = try monitor([])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "*** Booting Zephyr OS ***\n[00:00:48.453,000] <inf> net_core: iface up\n")
    }

    @Test func jsonKeepsTheExactBytesBesideTheRenderedLine() throws {
        let result = try monitor(["--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let record = try #require(
            try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "notification" }.last)
        #expect(record["line"] as? String == "[00:00:48.453,000] <inf> net_core: iface up")
        #expect(record["level"] as? String == "info")
        let exact = Array(Self.redraw.utf8.dropLast(2)).map { String(format: "%02x", $0) }.joined()
        #expect(record["line_hex"] as? String == exact)
    }
}
