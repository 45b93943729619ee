import Foundation
import Testing

/// `--version` names the version and the commit the executable was built from (it
/// printed `0.1.0` alone).
@Suite struct VersionEndToEndTests {
    /// The checkout's commit as the StampCommit plugin writes it.
    static func checkoutCommit() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let result = try Subprocess.run(path: "/usr/bin/git", ["-C", root.path, "rev-parse", "--short=7", "HEAD"])
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: ["tether", "tether-sim"])
    func versionNamesTheVersionAndTheCommit(program: String) throws {
        let result = try Subprocess.run(program, ["--version"])
        #expect(result.status == 0, "\(result.stderr)")
        let commit = try Self.checkoutCommit()
        let line = result.stdout
        #expect(
            line == "\(program) 0.1.0 (\(commit))\n" || line == "\(program) 0.1.0 (\(commit)-dirty)\n",
            "\(line) (HEAD: \(commit))")
    }
}
