import Foundation
import Testing

/// `send --program` and `receive --program`: the port handed to lrzsz's `sz` and `rz`
/// (ZMODEM), against `rz` and `sz` on the far end of the line (Harness/lrzsz_line.py).
@Suite(.serialized) struct ProgramTransferEndToEndTests {
    typealias Line = TransferEndToEndTests.Line

    /// `tether send LINE --program sz` to `rz`: both files byte-identical.
    @Test func sendsByZModemWithSz() throws {
        let source = try TemporaryFolder()
        let target = try TemporaryFolder()
        let files = [("z1.bin", 1025), ("z2.bin", 200 * 1024)].enumerated().map { index, file in
            (name: file.0, data: TransferEndToEndTests.data(file.1, seed: UInt64(30 + index)))
        }
        for file in files { try file.data.write(to: source.url.appendingPathComponent(file.name)) }
        let line = try Line(["rz"], in: target.url.path)
        let result = try Subprocess.run(
            "tether", ["send", line.port, "--program", "sz"] + files.map { source.path($0.name) }, timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        for file in files {
            #expect(FileManager.default.contents(atPath: target.path(file.name)) == file.data, "\(file.name)")
        }
        // Not rz's exit: sz's last "OO" can be lost to its own tcflush on the pty
        // (docs/TRANSFERS.md, "Handing the port to a program"), and rz then waits 10 s.
        line.process.send(SIGTERM)
    }

    /// `tether receive LINE FOLDER --program rz` from `sz`: the file lands in FOLDER.
    @Test func receivesByZModemWithRz() throws {
        let source = try TemporaryFolder()
        let target = try TemporaryFolder()
        let data = TransferEndToEndTests.data(100 * 1024, seed: 33)
        try data.write(to: source.url.appendingPathComponent("back.bin"))
        let line = try Line(["sz", "back.bin"], in: source.url.path)
        let result = try Subprocess.run(
            "tether", ["receive", line.port, target.url.path, "--program", "rz"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(line.process.wait(timeout: 10).status == 0)
        #expect(FileManager.default.contents(atPath: target.path("back.bin")) == data)
    }

    /// The program's failure is 76 with its status; one the shell cannot find is 69.
    @Test func programFailures() throws {
        let folder = try TemporaryFolder()
        let line = try Line(["sleep", "30"], in: folder.url.path)
        let failed = try Subprocess.run("tether", ["send", line.port, "--program", "exit 3;", "/etc/hostname"])
        #expect(failed.status == 76, "\(failed.stderr)")
        #expect(failed.stderr.hasSuffix("Error: 'exit 3;' failed (exit status 3)\n"), "\(failed.stderr)")
        let missing = try Subprocess.run("tether", ["receive", line.port, "--program", "no-such-program-x"])
        #expect(missing.status == 69, "\(missing.stderr)")
        #expect(missing.stderr.contains("Error: cannot run 'no-such-program-x'"), "\(missing.stderr)")
        line.process.send(SIGTERM)
    }

    /// What cannot be handed to a program is a usage error, before any port opens.
    @Test(arguments: [
        (["send", "--sim", "--program", "sz", "/etc/hostname"], "'--program' needs a serial port"),
        (["receive", "tcp://127.0.0.1:1", "--program", "rz"], "'--program' needs a local serial port"),
        (["send", "/dev/null", "-p", "xmodem", "--program", "sz", "/etc/hostname"], "'--protocol' and '--program'"),
        (["receive", "--sim", "--program", " "], "'--program' needs a command"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try Subprocess.run("tether", arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
