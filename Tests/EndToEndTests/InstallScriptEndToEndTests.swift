import Foundation
import Testing

/// `scripts/install` (README, "Installing"): installs both executables, their man pages
/// and completions under a prefix, where they work from any folder, and `--uninstall`
/// removes what it installed.
@Suite struct InstallScriptEndToEndTests {
    /// The package's root, where `scripts/` is.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `scripts/install` with `arguments`, on the executables of this build.
    static func install(_ arguments: [String]) throws -> Subprocess.Result {
        try Subprocess.run(
            path: root.appendingPathComponent("scripts/install").path,
            arguments + ["--from", Subprocess.productsDirectory.path])
    }

    @Test func installsIntoAPrefixWorksFromAnEmptyFolderAndUninstalls() throws {
        let prefix = try TemporaryFolder()
        let empty = try TemporaryFolder()
        let installed = try Self.install(["--prefix", prefix.url.path])
        #expect(installed.status == 0, "\(installed.stderr)")
        for program in ["tether", "tether-sim"] {
            #expect(FileManager.default.isExecutableFile(atPath: prefix.path("bin/\(program)")))
            for file in [
                "share/man/man1/\(program).1", "share/bash-completion/completions/\(program)",
                "share/zsh/site-functions/_\(program)", "share/fish/vendor_completions.d/\(program).fish",
            ] {
                let text = try? String(contentsOfFile: prefix.path(file), encoding: .utf8)
                #expect(text?.isEmpty == false, "\(file)")
            }
        }
        let manual = try Subprocess.run(
            path: "/usr/bin/env", ["MANPATH=\(prefix.path("share/man"))", "man", "-P", "cat", "tether-sim"])
        #expect(manual.stdout.contains("tether-sim - Simulate a serial device"), "\(manual.stderr)")
        let query = try Subprocess.run(
            path: "/bin/sh", ["-c", "cd '\(empty.url.path)' && '\(prefix.path("bin/tether"))' query --sim '*IDN?'"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout.contains("*IDN? → TETHER,ENV-1,SIM0001"), "\(query.stdout)")

        let removed = try Self.install(["--prefix", prefix.url.path, "--uninstall"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let files = FileManager.default.enumerator(atPath: prefix.url.path)?.allObjects as? [String] ?? []
        let left = files.filter { !FileManager.default.isDirectory(prefix.path($0)) }
        #expect(left == [])
    }

    @Test func aBadArgumentIsAUsageError() throws {
        let result = try Self.install(["--prefix"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --prefix needs a folder"))
    }
}

extension FileManager {
    /// Whether `path` is a folder.
    fileprivate func isDirectory(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
