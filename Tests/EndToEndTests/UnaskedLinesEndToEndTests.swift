import Foundation
import Testing

/// A device that speaks unasked, with nothing told about it, through the real CLI and a
/// pty: its readings are learned and stop being taken as replies (docs/DIALECTS.md,
/// "Stray lines").
@Suite struct UnaskedLinesEndToEndTests {
    static let profile = """
        {
          "name": "thermometer",
          "description": "prints T=21.4C every 40 ms unasked",
          "identity": "TETHER,THERMO-1,{serial},1.0",
          "dialect": "line",
          "properties": [{ "name": "t", "type": "number", "initial": 21.4, "format": "%.1f" }],
          "commands": [{ "match": "*IDN?", "reply": "{identity}" }],
          "notifications": [{ "name": "reading", "every": 40, "send": "T={t}C" }]
        }
        """

    /// `T=21.4C` every 40 ms, `*IDN?` answered after 25 ms, 20 queries, no pattern:
    /// at least 18 replies are the identity (the figure is printed).
    @Test func aThermometerGetsItsIdentityReplies() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("thermometer.json")
        try Self.profile.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Subprocess.run(
            "tether",
            ["query", "--sim", "--profile", path, "--latency", "25", "--format", "json"]
                + Array(repeating: "*IDN?", count: 20), timeout: 120)
        let replies = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "reply" }
        let right = replies.filter { $0["lines"] as? [String] == ["TETHER,THERMO-1,SIM0001,1.0"] }.count
        print("unasked lines, end to end: \(right) of 20 *IDN? replies right")
        #expect(replies.count == 20, "\(result.stdout)\(result.stderr)")
        #expect(right >= 18, "\(result.stdout)")
    }
}
