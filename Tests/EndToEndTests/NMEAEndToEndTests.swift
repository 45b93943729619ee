import Foundation
import Testing
import TetherSimulator

/// A GNSS receiver through the real CLI, libserialport and a pty: the `gps` profile's
/// sentences as readings, a damaged sentence as an `invalid_line`, commands with their
/// checksum computed (docs/DIALECTS.md, "`nmea`").
@Suite struct NMEAEndToEndTests {
    private func records(_ result: Subprocess.Result, type: String) throws -> [[String: Any]] {
        try JSONLines.parse(result.stdout).filter { $0["type"] as? String == type }
    }

    /// The profile's fix: lat/lon in decimal degrees, fix quality, satellites, HDOP,
    /// altitude, speed, course, UTC time and date, as readings.
    @Test func theFixIsReadings() throws {
        let result = try Subprocess.run(
            "tether", ["monitor", "--sim", "--profile", "gps", "--count", "7", "--format", "json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let readings = try records(result, type: "notification").compactMap { $0["readings"] as? [String: Any] }
        let merged = readings.reduce(into: [String: Any]()) { $0.merge($1) { $1 } }
        #expect(merged["lat"] as? Double == 52.52, "\(result.stdout)")
        #expect(merged["lon"] as? Double == 13.41)
        #expect(merged["fix"] as? Double == 1)
        #expect(merged["sats"] as? Double == 8)
        #expect(merged["hdop"] as? Double == 0.9)
        #expect(merged["alt"] as? Double == 34.5)
        #expect(merged["speed"] as? Double == 0.5)
        #expect(merged["course"] as? Double == 54.7)
        #expect(merged["utc"] as? String == "12:35:19.00")
        #expect(merged["date"] as? String == "2026-11-30")
    }

    /// A sentence with a wrong checksum is an `invalid_line` record (text: a marked
    /// line), never a notification with readings.
    @Test func aWrongChecksumIsNeverSilent() throws {
        let receiver = ScriptedDevice(
            onOpen: [
                .init("$GNGGA,123519.00,5231.2000,N,01324.6000,E,1,08,0.9,34.5,M,39.1,M,,*43\r\n"),
                .init("$PMTK001,220,3*30\r\n", after: .milliseconds(50)),
            ], rules: [])
        let simulator = try Simulator(device: receiver)
        defer { simulator.stop() }
        let json = try Subprocess.run(
            "tether", ["monitor", simulator.devicePath, "--dialect", "nmea", "--count", "1", "--format", "json"])
        let invalid = try records(json, type: "invalid_line")
        #expect(invalid.first?["reason"] as? String == "checksum 43, computed 42", "\(json.stdout)")
        let notifications = try records(json, type: "notification")
        #expect(notifications.map { $0["line"] as? String } == ["$PMTK001,220,3*30"])
    }

    /// `$PMTK220,1000` goes out as `$PMTK220,1000*1F`, and its acknowledgement is the reply.
    @Test func aCommandGetsItsChecksum() throws {
        let result = try Subprocess.run(
            "tether", ["query", "--sim", "--profile", "gps", "$PMTK220,1000", "$PMTK605"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("$PMTK220,1000 → $PMTK001,220,3*30"), "\(result.stdout)")
        #expect(result.stdout.contains("$PMTK605 → $PMTK705,"), "\(result.stdout)")
    }
}
