import Foundation
import Testing

/// `scripts/install` (docs/INSTALL.md): installs both executables, their man pages,
/// completions, documents and examples under a prefix, where they work from any folder,
/// and `--uninstall` removes what it installed.
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

        // The documents the man page and --help name are installed under those names.
        #expect(manual.stdout.contains("share/doc/tether"), "\(manual.stdout)")
        for doc in ["README.md", "docs/PROFILES.md", "docs/INSTALL.md", "Simulator/README.md"] {
            #expect(FileManager.default.fileExists(atPath: prefix.path("share/doc/tether/\(doc)")), "\(doc)")
        }
        // examples/'s files, which the docs run, are installed beside them and run from
        // there; its Swift package (examples/library-client, built against the source
        // tree) is not installed.
        let folder = Self.root.path + "/examples"
        let examples = try FileManager.default.contentsOfDirectory(atPath: folder).filter { name in
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder)
            return exists && !isFolder.boolValue
        }
        #expect(examples.contains("chamber.txt") && !examples.contains("library-client"))
        #expect(!FileManager.default.fileExists(atPath: prefix.path("share/doc/tether/examples/library-client")))
        for example in examples {
            let installedCopy = try? Data(
                contentsOf: URL(fileURLWithPath: prefix.path("share/doc/tether/examples/\(example)")))
            #expect(
                installedCopy == (try Data(contentsOf: Self.root.appendingPathComponent("examples/\(example)"))),
                "\(example)")
        }
        let example = try Subprocess.run(
            path: prefix.path("bin/tether"), ["run", prefix.path("share/doc/tether/examples/chamber.txt"), "--sim"])
        #expect(example.status == 0, "\(example.stdout)\(example.stderr)")

        let removed = try Self.install(["--prefix", prefix.url.path, "--uninstall"])
        #expect(removed.status == 0, "\(removed.stderr)")
        // Nothing is left, not even the empty folders the install made.
        let left = FileManager.default.enumerator(atPath: prefix.url.path)?.allObjects as? [String] ?? []
        #expect(left == [])
    }

    /// `--uninstall` left every folder it had created; it removes those, but not a
    /// folder that was there before (`bin`, with another program in it) or one that
    /// holds something else.
    @Test func uninstallKeepsTheFoldersThatWereThereBefore() throws {
        let prefix = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: prefix.path("bin"), withIntermediateDirectories: false)
        try Data().write(to: URL(fileURLWithPath: prefix.path("bin/other")))
        #expect(try Self.install(["--prefix", prefix.url.path]).status == 0)
        try Data().write(to: URL(fileURLWithPath: prefix.path("share/man/man1/other.1")))
        #expect(try Self.install(["--prefix", prefix.url.path, "--uninstall"]).status == 0)
        let left = (FileManager.default.enumerator(atPath: prefix.url.path)?.allObjects as? [String] ?? []).sorted()
        #expect(left == ["bin", "bin/other", "share", "share/man", "share/man/man1", "share/man/man1/other.1"])
    }

    @Test func aBadArgumentIsAUsageError() throws {
        let result = try Self.install(["--prefix"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --prefix needs a folder"))
    }
}
