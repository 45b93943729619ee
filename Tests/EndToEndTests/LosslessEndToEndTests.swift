import Foundation
import Testing
import TetherSimulator

/// Nothing the device sends is lost between the port and the output, however fast it
/// sends and however slowly the output is read: the view's subscription is lossless,
/// so tether stops reading the port while it is behind (docs/ARCHITECTURE.md).
@Suite struct LosslessEndToEndTests {
    struct Summary: Decodable {
        var burst: Int
        var in_order: Bool
        var first_bad: String?
        var missed: Int
        var other: Int
        var status: Int
        var maxrss_kb: Int
    }

    private static let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Harness/stream_reader.py").path
    private static let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path

    /// Starts `tether-sim` sending `count` `!BURST n=<i>` lines as fast as the pty
    /// takes them, on a profile that sends no other notifications.
    private func burstingSimulator(_ count: Int, in folder: TemporaryFolder) throws -> (Subprocess, String) {
        let link = folder.path("device")
        let sim = try Subprocess(
            "tether-sim", ["--profile", "scpi-psu", "--link", link, "--burst", "\(count)@1000000000"])
        #expect(sim.waitForOutput(containing: "link: \(link)"))
        return (sim, link)
    }

    private func read(_ arguments: [String], timeout: Double) async throws -> Summary {
        let result = try await Subprocess.runDetached(
            path: "/usr/bin/python3", [Self.harness, Self.tether] + arguments, timeout: timeout)
        return try JSONDecoder().decode(Summary.self, from: Data(result.stdout.utf8))
    }

    /// A million lines at pty speed into `tether monitor --format json > file`: every
    /// number once, in order, and no `missed` record.
    @Test func aMillionLinesReachTheFileInOrderWithNoneMissed() async throws {
        let folder = try TemporaryFolder()
        let (sim, link) = try burstingSimulator(1_000_000, in: folder)
        defer {
            sim.send(SIGTERM)
            _ = sim.wait()
        }
        let summary = try await read([link, "1000000", "file", folder.path("out.jsonl")], timeout: 900)
        #expect(summary.status == 0)
        #expect(summary.burst == 1_000_000)
        #expect(summary.in_order, "first out of order: \(summary.first_bad ?? "")")
        #expect(summary.missed == 0)
        #expect(summary.other == 0)
    }

    /// The output's reader stops for 2 s after 50 000 of 200 000 lines: nothing is lost,
    /// and tether's peak memory stays below 64 MiB (it stops reading the port instead
    /// of buffering; measured here: about 30 MiB, the same as without the pause).
    @Test func aReaderThatPausesLosesNothingAndMemoryStaysBounded() async throws {
        let folder = try TemporaryFolder()
        let (sim, link) = try burstingSimulator(200_000, in: folder)
        defer {
            sim.send(SIGTERM)
            _ = sim.wait()
        }
        let summary = try await read([link, "200000", "pipe", "50000", "2"], timeout: 600)
        #expect(summary.burst == 200_000)
        #expect(summary.in_order, "first out of order: \(summary.first_bad ?? "")")
        #expect(summary.missed == 0)
        #expect(summary.maxrss_kb < 64 * 1024, "peak RSS \(summary.maxrss_kb) KiB")
    }

    /// `tether run` awaiting the last of 200 000 notifications costs at most twice the
    /// CPU time `tether monitor` spends showing the same stream (each line is looked at
    /// once, not once per line that came after it). CPU time, not wall time: the
    /// comparison must hold on a loaded machine.
    @Test func runAwaitingTheLastOfManyNotificationsKeepsPace() async throws {
        let folder = try TemporaryFolder()
        let script = folder.path("await.lua")
        try """
        local line = device.await("^!BURST n=200000$", 600000)
        check(line ~= nil, "the last line arrived")
        """.write(toFile: script, atomically: true, encoding: .utf8)

        let monitor: Subprocess.Result
        do {
            let (sim, link) = try burstingSimulator(200_000, in: folder)
            defer {
                sim.send(SIGTERM)
                _ = sim.wait()
            }
            monitor = try await Subprocess.runDetached("tether", ["monitor", link, "--count", "200000"], timeout: 600)
            #expect(monitor.status == 0, "\(monitor.stderr)")
        }
        let (sim, link) = try burstingSimulator(200_000, in: folder)
        defer {
            sim.send(SIGTERM)
            _ = sim.wait()
        }
        let run = try await Subprocess.runDetached("tether", ["run", script, "--port", "device=\(link)"], timeout: 600)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.cpuSeconds < 2 * monitor.cpuSeconds + 1,
            "run used \(run.cpuSeconds) s of CPU, monitor \(monitor.cpuSeconds) s")
    }

    /// A device that sends 5 000 notifications before each reply: every reply and every
    /// notification reaches the output, and `query` ends (the reply record used to be
    /// dropped from a full buffer, and `query` then waited for ever).
    @Test func repliesBehindThousandsOfNotificationsAreNeverDropped() async throws {
        let flood = (0..<5_000).map { "!N \($0)\r\n" }.joined()
        let rules = (1...3).map { index in
            ScriptedDevice.Rule(on: "Q\(index)\n", send: [ScriptedDevice.Chunk(flood + "R\(index)\r\n")])
        }
        let simulator = try Simulator(device: ScriptedDevice(rules: rules))
        defer { simulator.stop() }
        let result = try await Subprocess.runDetached(
            "tether",
            ["query", simulator.devicePath, "--notify-pattern", "^!", "--format", "json", "--timeout", "30000"]
                + ["Q1", "Q2", "Q3"], timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        let replies = records.filter { $0["type"] as? String == "reply" }.compactMap { $0["lines"] as? [String] }
        #expect(replies == [["R1"], ["R2"], ["R3"]])
        #expect(records.filter { $0["type"] as? String == "notification" }.count == 15_000)
        #expect(!records.contains { $0["type"] as? String == "missed" })
    }
}
