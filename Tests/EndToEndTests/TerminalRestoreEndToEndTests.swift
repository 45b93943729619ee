import Foundation
import Testing

/// Ended by SIGTERM, SIGINT or SIGHUP, `tether connect` leaves the user's
/// terminal settings exactly as it found them and exits with the documented code.
@Suite struct TerminalRestoreEndToEndTests {
    struct Outcome: Decodable {
        var status: Int
        var same: Bool
        var banner: Bool
    }

    @Test(arguments: [("TERM", 143), ("INT", 130), ("HUP", 129)])
    func signalLeavesTheTerminalAsItWas(signal: String, expected: Int) throws {
        let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Harness/terminal_harness.py").path
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let result = try Subprocess.run(path: "/usr/bin/python3", [harness, tether, signal])
        let outcome = try JSONDecoder().decode(Outcome.self, from: Data(result.stdout.utf8))
        #expect(outcome.banner, "connect showed its prompt on the terminal")
        #expect(outcome.status == expected)
        #expect(outcome.same, "terminal settings changed")
    }
}
