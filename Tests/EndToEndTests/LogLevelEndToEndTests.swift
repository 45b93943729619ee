import Foundation
import Testing
import TetherSimulator

/// `monitor --level`: the log lines below the level are left out (the `--log` file keeps
/// them), lines without a level stay; JSON's `level` field on each line that has one.
@Suite struct LogLevelEndToEndTests {
    typealias Chunk = ScriptedDevice.Chunk
    static let boot = [
        "I (27) boot: ESP-IDF v5.1 2nd stage bootloader", "[00:00:48.453,000] <wrn> net_if: iface 1 is down",
        "D (30) boot: tick", "Guru Meditation Error: Core  0 panic'ed (LoadProhibited).",
        "[00:00:48.460,000] <err> os: ***** USAGE FAULT *****", "<6>Booting Linux", "E (40) wifi: connect failed",
    ]

    private func monitor(_ arguments: [String], count: Int) throws -> Subprocess.Result {
        let text = Self.boot.map { $0 + "\r\n" }.joined()
        let simulator = try Simulator(device: ScriptedDevice(onOpen: [Chunk(text, after: .milliseconds(200))]))
        defer { simulator.stop() }
        return try Subprocess.run(
            "tether", ["monitor", simulator.devicePath, "--count", "\(count)"] + arguments, timeout: 120)
    }

    @Test func levelWarnShowsWarningsErrorsAndLinesWithoutALevel() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("all.json")
        let result = try monitor(["--level", "warn", "--log", log], count: 4)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                [00:00:48.453,000] <wrn> net_if: iface 1 is down
                Guru Meditation Error: Core  0 panic'ed (LoadProhibited).
                [00:00:48.460,000] <err> os: ***** USAGE FAULT *****
                E (40) wifi: connect failed

                """)
        let logged = try JSONLines.parse(try String(contentsOfFile: log, encoding: .utf8)).filter {
            $0["type"] as? String == "notification"
        }
        #expect(logged.count == Self.boot.count)
    }

    @Test func jsonGivesEachLinesLevel() throws {
        let result = try monitor(["--format", "json"], count: Self.boot.count)
        #expect(result.status == 0, "\(result.stderr)")
        let levels = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "notification" }.map {
            $0["level"] as? String ?? "-"
        }
        #expect(levels == ["info", "warning", "debug", "-", "error", "info", "error"])
    }

    @Test func anUnknownLevelIsAUsageError() throws {
        let result = try Subprocess.run("tether", ["monitor", "--sim", "--level", "loud"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Please provide one of 'error', 'warn', 'info', 'debug'."), "\(result.stderr)")
    }
}
