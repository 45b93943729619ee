import Testing
import TetherCommandLine

@Suite struct VersionTests {
    @Test func theLineNamesTheProgramTheVersionAndTheCommit() {
        #expect(Version.text(program: "tether", commit: "19fedcb") == "tether \(Version.number) (19fedcb)")
    }

    @Test func aBuildOutsideGitSaysSo() {
        #expect(
            Version.text(program: "tether-sim", commit: nil)
                == "tether-sim \(Version.number) (not built from a git checkout)")
    }
}
