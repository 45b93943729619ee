import Foundation
import Testing

/// `tether monitor` against `tether-sim` faults: sequence numbers prove what arrived.
@Suite struct SimulatorFaultsEndToEndTests {
    /// Starts `tether-sim` with a link in `folder` and `options`; returns it and the link.
    private func simulator(_ options: [String], in folder: TemporaryFolder) throws -> (Subprocess, String) {
        let link = folder.path("device")
        let sim = try Subprocess("tether-sim", ["--link", link] + options)
        #expect(sim.waitForOutput(containing: "link: \(link)"))
        return (sim, link)
    }

    /// The `seq` reading of every notification in JSON Lines output.
    private func sequenceNumbers(_ records: [[String: Any]]) -> [Int] {
        records.filter { $0["type"] as? String == "notification" }.compactMap {
            (($0["readings"] as? [String: Any])?["seq"] as? NSNumber)?.intValue
        }
    }

    @Test func aBurstWithSequenceNumbersArrivesComplete() throws {
        let folder = try TemporaryFolder()
        let (sim, link) = try simulator(["--burst", "500@2000", "--sequence-numbers"], in: folder)
        defer {
            sim.send(SIGTERM)
            _ = sim.wait()
        }
        let result = try Subprocess("tether", ["monitor", link, "--format", "json", "--count", "500"]).wait(timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let numbers = sequenceNumbers(try JSONLines.parse(result.stdout))
        #expect(numbers == Array(1...500))
    }

    /// The device hangs up after 20 lines and is back 300 ms later on a new pty behind the
    /// same link: monitor reports the disconnect, reconnects, and the numbers go on from
    /// 21. Nothing is lost here because the simulated device produces nothing while no
    /// client is connected; a real device that kept talking while away would show gaps.
    @Test func monitorRidesThroughADisconnectAndNumbersContinue() throws {
        let folder = try TemporaryFolder()
        let (sim, link) = try simulator(
            [
                "--burst", "40@100", "--sequence-numbers", "--disconnect-after-lines", "20", "--reappear-after",
                "300",
            ], in: folder)
        defer {
            sim.send(SIGTERM)
            _ = sim.wait()
        }
        let result = try Subprocess("tether", ["monitor", link, "--format", "json", "--count", "30"]).wait(timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        let types = records.compactMap { $0["type"] as? String }.filter { $0 != "notification" }
        #expect(types.starts(with: ["connected", "disconnected", "reconnecting", "reconnected"]), "\(types)")
        #expect(sequenceNumbers(records) == Array(1...30))
    }
}
