import Foundation
import Testing

/// The executables copied on their own (`cp .build/release/tether* ~/bin/`) work: the
/// built-in profiles are compiled in, not read from a resource folder beside them.
@Suite struct InstalledCopyEndToEndTests {
    /// A folder holding only copies of both executables, and an empty one to run them in.
    final class Copies {
        let folder: TemporaryFolder
        let emptyFolder: TemporaryFolder

        init() throws {
            folder = try TemporaryFolder()
            emptyFolder = try TemporaryFolder()
            // Copied by `cp`, not in this process: a copy written here could still be open
            // for writing in a child another test forks meanwhile, and running it then
            // fails with ETXTBSY ("Text file busy", exit 126).
            let products = ["tether", "tether-sim"].map { Subprocess.productsDirectory.appendingPathComponent($0).path }
            let copy = try Subprocess.run(path: "/bin/cp", products + [folder.url.path])
            guard copy.status == 0 else { throw CopyFailed(message: copy.stderr) }
        }

        /// Runs `command` (the copies' folder first on `PATH`) in the empty folder.
        func run(_ command: String) throws -> Subprocess.Result {
            try Subprocess.run(
                path: "/bin/sh", ["-c", "cd '\(emptyFolder.url.path)' && PATH='\(folder.url.path)':$PATH \(command)"])
        }
    }

    struct CopyFailed: Error {
        let message: String
    }

    /// Exited 64: "the built-in profiles are missing (no tether_TetherSimulator.resources …)".
    @Test func queryWithTheSimulatorWorksFromACopy() throws {
        let result = try Copies().run("tether query --sim '*IDN?'")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("*IDN? → TETHER,ENV-1,SIM0001"), "\(result.stdout)")
    }

    /// Printed nothing and exited 0.
    @Test func tetherSimListsTheBuiltInsFromACopy() throws {
        let result = try Copies().run("tether-sim --list-profiles")
        #expect(result.status == 0, "\(result.stderr)")
        let names = result.stdout.split(separator: "\n").map { $0.prefix { $0 != " " } }
        #expect(["at-modem", "env", "prompt-console", "scpi-psu"].allSatisfy { names.contains(Substring($0)) })
    }

    /// Listed "Profiles: ." instead of running the device.
    @Test func runWithASimulatedPortWorksFromACopy() throws {
        let copies = try Copies()
        try "ATI\n".write(toFile: copies.folder.path("modem.txt"), atomically: true, encoding: .utf8)
        let result = try copies.run("tether run '\(copies.folder.path("modem.txt"))' --port m=sim:at-modem")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("Profiles"), "\(result.stderr)")
    }
}
