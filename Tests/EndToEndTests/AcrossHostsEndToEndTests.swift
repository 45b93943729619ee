import Foundation
import Glibc
import Testing

/// Devices behind ser2net on three hosts — network namespaces of this machine
/// (``NetworkHost``), each with a `tether-sim` and a ser2net exporting its pty — driven
/// by one `tether run`, and one host's link cut without a word, then restored
/// (docs/REMOTE.md, "In detail"; docs/RELIABILITY.md).
@Suite(
    .serialized,
    .enabled(if: NetworkHost.isPermitted, "needs root to make network namespaces (ip netns add): CI runs as root"))
struct AcrossHostsEndToEndTests {
    /// The hosts' devices, by name, and how each is reached: host 3's is the one cut.
    private static let devices: [(name: String, telnet: Bool)] = [("a", false), ("b", true), ("c", true)]

    /// One host: its namespace, the simulator (env profile, numbered notifications
    /// every second) and ser2net.
    private struct Host {
        let network: NetworkHost
        let server: Ser2net
    }

    private func host(_ number: Int, in folder: TemporaryFolder) throws -> Host {
        let network = try NetworkHost(number: number)
        let link = folder.path("device\(number)")
        let simulator = Subprocess.productsDirectory.appendingPathComponent("tether-sim").path
        _ = try network.start(simulator, ["--link", link, "--sequence-numbers"])
        #expect(waitUntil { FileManager.default.fileExists(atPath: link) }, "no simulator on host \(number)")
        return Host(network: network, server: try Ser2net(exporting: link, in: folder, on: network))
    }

    /// The `seq=` number of each notification record of `device`, with the record's
    /// place among all records.
    private static func notifications(of device: String, in records: [[String: Any]]) -> [(index: Int, seq: Int)] {
        records.enumerated().compactMap { index, record in
            guard record["type"] as? String == "notification", record["device"] as? String == device,
                let line = record["line"] as? String, let seq = line.split(separator: "seq=").last.flatMap({ Int($0) })
            else { return nil }
            return (index, seq)
        }
    }

    /// Whether `numbers` go up by one each.
    private static func isUnbroken(_ numbers: [Int]) -> Bool {
        zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 + 1 }
    }

    /// Host c's link goes down for 15 s while the run queries all three in turn, 300 ms
    /// apart (5 s timeouts, generous for a loaded machine): a and b carry on, unbroken;
    /// c's disconnect is reported within 30 s of the cut (the socket's 10 s
    /// `TCP_USER_TIMEOUT` and keepalive; about 10 s here); c reconnects after the link
    /// returns and its notifications flow again; everything received before the cut is
    /// in the output, in order; the script handled every failure, so the run passes.
    @Test func oneHostCutAndRestoredWhileTheOthersCarryOn() throws {
        let folder = try TemporaryFolder()
        let hosts = try (1...3).map { try host($0, in: folder) }
        defer { for host in hosts { host.network.remove() } }
        let done = folder.path("done")
        let script = folder.path("hosts.lua")
        try """
        local names = { "a", "b", "c" }
        while not io.open("\(done)") do
          for _, name in ipairs(names) do
            local reply, err = devices[name].query("*IDN?", 5000)
            if not reply then emit({ device = name, failed = err.kind }) end
          end
          sleep(300)
        end
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let ports = zip(Self.devices, hosts).flatMap { device, host in
            ["--port", "\(device.name)=\(device.telnet ? host.server.telnetAddress : host.server.rawAddress)"]
        }
        let run = try Subprocess("tether", ["run", script, "--format", "json"] + ports)
        defer {
            if run.isRunning {
                run.send(SIGKILL)
                _ = run.wait()
            }
        }
        func records() -> [[String: Any]] { (try? JSONLines.parse(run.stdoutSoFar)) ?? [] }
        func hasNotifications(_ count: Int, of device: String, after index: Int = -1) -> Bool {
            Self.notifications(of: device, in: records()).filter { $0.index > index }.count >= count
        }
        func index(of type: String, _ device: String) -> Int? {
            records().firstIndex { $0["type"] as? String == type && $0["device"] as? String == device }
        }
        #expect(
            waitUntil { Self.devices.allSatisfy { hasNotifications(2, of: $0.name) } },
            "\(run.stdoutSoFar.suffix(2000))\(run.stderrSoFar)")

        try hosts[2].network.cut()
        let cut = Date()
        let seenAtCut = Self.notifications(of: "c", in: records()).map(\.seq)
        let reported = waitUntil(timeout: 60) { index(of: "disconnected", "c") != nil }
        let detection = Date().timeIntervalSince(cut)
        #expect(reported, "\(run.stdoutSoFar.suffix(2000))\(run.stderrSoFar)")
        #expect(detection < 30, "the cut was reported after \(detection) s")
        let lost = try #require(index(of: "disconnected", "c"))
        #expect(waitUntil { hasNotifications(3, of: "a", after: lost) && hasNotifications(3, of: "b", after: lost) })
        let away = Date().timeIntervalSince(cut)
        if away < 15 { usleep(useconds_t((15 - away) * 1e6)) }

        try hosts[2].network.restore()
        #expect(
            waitUntil(timeout: 60) { index(of: "reconnected", "c") != nil },
            "\(run.stdoutSoFar.suffix(2000))\(run.stderrSoFar)")
        let back = try #require(index(of: "reconnected", "c"))
        #expect(waitUntil { hasNotifications(2, of: "c", after: back) }, "\(run.stdoutSoFar.suffix(2000))")

        _ = FileManager.default.createFile(atPath: done, contents: nil)
        let result = run.wait(timeout: 60)
        #expect(result.status == 0, "\(result.stdout.suffix(2000))\(result.stderr)")
        let all = try JSONLines.parse(result.stdout)
        for name in ["a", "b"] {
            let seqs = Self.notifications(of: name, in: all).map(\.seq)
            #expect(Self.isUnbroken(seqs), "\(name): \(seqs)")
            #expect(!all.contains { $0["device"] as? String == name && $0["type"] as? String == "disconnected" })
            #expect(!all.contains { $0["type"] as? String == "emit" && "\($0)".contains("\"\(name)\"") })
        }
        let before = Self.notifications(of: "c", in: all).filter { $0.index < lost }.map(\.seq)
        let after = Self.notifications(of: "c", in: all).filter { $0.index > back }.map(\.seq)
        #expect(Array(before.prefix(seenAtCut.count)) == seenAtCut, "\(before) \(seenAtCut)")
        #expect(Self.isUnbroken(before), "c before the cut: \(before)")
        #expect(!after.isEmpty && after.first! > (before.last ?? 0), "c after the return: \(after)")
        #expect(Self.isUnbroken(after), "c after the return: \(after)")
        let types = all.filter { $0["device"] as? String == "c" }.compactMap { $0["type"] as? String }
        let gone = try #require(types.firstIndex(of: "disconnected"))
        #expect(types[gone...].prefix(2) == ["disconnected", "reconnecting"], "\(types)")
        #expect(all.last?["outcome"] as? String == "passed", "\(all.last ?? [:])")
    }
}
