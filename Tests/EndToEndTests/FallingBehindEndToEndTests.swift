import Foundation
import Testing

/// A device that falls behind while its notifications keep coming, through the real CLI
/// and a pty: no reply is handed to another command unmarked (docs/DIALECTS.md, "Stray
/// lines": replies that cannot be attributed).
@Suite struct FallingBehindEndToEndTests {
    /// The simulator's default device (`!READING` lines, named by its notification
    /// pattern) with each reply 100 ms later than the one before (`--latency-step 100`),
    /// `--timeout 50`, asked `*IDN?` and `SETP?` in turn 24 times: from the 14th
    /// reply on the late reply comes after tether stopped waiting for it. Every reply
    /// and late reply shown is its command's (the identity for `*IDN?`, a number for
    /// `SETP?`) or in doubt. The figure is printed.
    @Test func aDeviceFallingBehindGivesNoReplyOfAnotherCommandUnmarked() throws {
        let commands = (0..<24).map { $0 % 2 == 0 ? "*IDN?" : "SETP?" }
        let result = try Subprocess.run(
            "tether",
            ["query", "--sim", "--latency-step", "100", "--timeout", "50", "--format", "json"] + commands,
            timeout: 240)
        let records = try JSONLines.parse(result.stdout)
        let shown = records.filter { ["reply", "late_reply"].contains($0["type"] as? String) }
        let wrong = shown.filter { record in
            let isIdentity = (record["lines"] as? [String])?.first?.hasPrefix("TETHER,") == true
            return (record["command"] as? String == "*IDN?") != isIdentity
        }
        let unmarked = wrong.filter { $0["in_doubt"] as? Bool != true }
        let doubted = shown.filter { $0["in_doubt"] as? Bool == true }.count
        print(
            "falling behind, end to end: \(shown.count) replies shown, \(wrong.count) another command's, "
                + "\(unmarked.count) of those unmarked, \(doubted) in doubt")
        #expect(!shown.isEmpty, "\(result.stdout)\(result.stderr)")
        #expect(unmarked.isEmpty, "\(unmarked)")
        #expect(result.status != 64, "\(result.stderr)")
    }
}
