import Foundation
import Glibc
import Testing

/// `tether send` and `tether receive` against lrzsz (Debian's `lrzsz`: `sb`, `rb`, `sx`,
/// `rx`) over a pty pair joined by a relay (Harness/lrzsz_line.py), as on a device's
/// console; and against the simulator's transfer peer.
@Suite(.serialized) struct TransferEndToEndTests {
    static let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Harness/lrzsz_line.py").path
    static let sizes = [0, 1, 127, 128, 129, 1023, 1024, 1025, 200 * 1024]

    /// An lrzsz program on the far end of a pseudo-terminal pair, running in `folder`.
    struct Line {
        let process: Subprocess
        /// The pty tether opens.
        let port: String

        /// `program` in `folder`; with `rate`, tether's bytes reach it at about that many
        /// a second (a slow line, so that progress stays on the screen a while).
        init(_ program: [String], in folder: String, rate: Int? = nil) throws {
            let throttle = rate.map { ["--rate", "\($0)"] } ?? []
            process = try Subprocess(
                path: "/usr/bin/python3", [TransferEndToEndTests.harness] + throttle + [folder] + program)
            #expect(process.waitForOutput(containing: "\n"), "the relay did not start")
            port = process.stdoutSoFar.split(separator: "\n").first.map(String.init) ?? ""
        }
    }

    /// Bytes from a seeded generator (SplitMix64), the same on every run.
    static func data(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        return Data(
            (0..<count).map { _ in
                state &+= 0x9E37_79B9_7F4A_7C15
                var mixed = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
                mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
                return UInt8(truncatingIfNeeded: mixed ^ (mixed >> 31))
            })
    }

    /// XMODEM's file: the sender's blocks, padded with 0x1A (1024-byte blocks but a
    /// last piece of 128 bytes or less, as tether and `sx -k` send them).
    static func padded(_ data: Data, blockSize: Int) -> Data {
        var total = 0
        var left = data.count
        while left > 0 {
            let count = min(left, blockSize)
            total += count <= 128 ? 128 : blockSize
            left -= count
        }
        return data + Data(repeating: 0x1A, count: total - data.count)
    }

    /// Writes one file per size into `folder`, named by size.
    static func files(in folder: TemporaryFolder) throws -> [(name: String, data: Data)] {
        try sizes.enumerated().map { index, size in
            let file = (name: "f\(size).bin", data: data(size, seed: UInt64(index + 1)))
            try file.data.write(to: folder.url.appendingPathComponent(file.name))
            return file
        }
    }

    /// YMODEM batch from tether to `rb`: every size arrives byte-identical.
    @Test func ymodemBatchToRb() throws {
        let source = try TemporaryFolder()
        let target = try TemporaryFolder()
        let files = try Self.files(in: source)
        let line = try Line(["rb"], in: target.url.path)
        let result = try Subprocess.run(
            "tether", ["send", line.port] + files.map { source.path($0.name) }, timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Sent 9 files by ymodem"), "\(result.stdout)")
        #expect(line.process.wait(timeout: 10).status == 0)
        for file in files {
            #expect(FileManager.default.contents(atPath: target.path(file.name)) == file.data, "\(file.name)")
        }
    }

    /// YMODEM batch from `sb` to tether, with JSON records: every size byte-identical.
    @Test func ymodemBatchFromSb() throws {
        let source = try TemporaryFolder()
        let target = try TemporaryFolder()
        let files = try Self.files(in: source)
        let line = try Line(["sb"] + files.map(\.name), in: source.url.path)
        let result = try Subprocess.run(
            "tether", ["receive", line.port, target.url.path, "--format", "json"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(line.process.wait(timeout: 10).status == 0)
        for file in files {
            #expect(FileManager.default.contents(atPath: target.path(file.name)) == file.data, "\(file.name)")
        }
        let records = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(records.allSatisfy { $0["type"] as? String == "transfer" && $0["direction"] as? String == "receive" })
        #expect(records.filter { $0["event"] as? String == "start" }.count == 9)
        let done = try #require(records.last)
        #expect(done["event"] as? String == "done")
        #expect(done["files"] as? Int == 9)
    }

    /// XMODEM-1K from tether to `rx -c`: the file arrives with the last block's padding,
    /// and tether reports it sent once `rx` acknowledged the EOT.
    @Test(arguments: [1, 1025, 200 * 1024]) func xmodem1KToRx(size: Int) throws {
        let source = try TemporaryFolder()
        let target = try TemporaryFolder()
        let data = Self.data(size, seed: 9)
        try data.write(to: source.url.appendingPathComponent("x.bin"))
        let line = try Line(["rx", "-c", "x.bin"], in: target.url.path)
        let result = try Subprocess.run("tether", ["send", line.port, source.path("x.bin"), "-p", "xmodem-1k"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Sent 1 file by xmodem-1k"), "\(result.stdout)")
        #expect(line.process.wait(timeout: 10).status == 0)
        #expect(FileManager.default.contents(atPath: target.path("x.bin")) == Self.padded(data, blockSize: 1024))
    }

    /// XMODEM-CRC and plain XMODEM (checksum) from `sx` to tether.
    @Test(arguments: [(1, "xmodem-crc"), (129, "xmodem"), (200 * 1024, "xmodem-crc")])
    func xmodemFromSx(size: Int, kind: String) throws {
        let source = try TemporaryFolder()
        let target = try TemporaryFolder()
        let data = Self.data(size, seed: 10)
        try data.write(to: source.url.appendingPathComponent("x.bin"))
        let line = try Line(["sx", "x.bin"], in: source.url.path)
        let result = try Subprocess.run("tether", ["receive", line.port, target.path("got.bin"), "-p", kind])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Received 1 file by \(kind)"), "\(result.stdout)")
        #expect(line.process.wait(timeout: 10).status == 0)
        #expect(FileManager.default.contents(atPath: target.path("got.bin")) == Self.padded(data, blockSize: 128))
    }

    /// `--command` types the receiver's command into a shell on the line first (as a
    /// user types `rb` on a board), then sends: the file arrives.
    @Test func commandStartsTheReceiverInAShell() throws {
        let source = try TemporaryFolder()
        let target = try TemporaryFolder()
        let data = Self.data(3000, seed: 11)
        try data.write(to: source.url.appendingPathComponent("c.bin"))
        let line = try Line(["sh"], in: target.url.path)
        let result = try Subprocess.run(
            "tether", ["send", line.port, "--command", "rb", source.path("c.bin")], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Sent 1 file by ymodem"), "\(result.stdout)")
        #expect(FileManager.default.contents(atPath: target.path("c.bin")) == data)
        line.process.send(SIGTERM)
    }

    /// `receive --command 'sb c.bin'` starts the sender in a shell on the line first.
    @Test func commandStartsTheSenderInAShell() throws {
        let source = try TemporaryFolder()
        let target = try TemporaryFolder()
        let data = Self.data(3000, seed: 12)
        try data.write(to: source.url.appendingPathComponent("c.bin"))
        let line = try Line(["sh"], in: source.url.path)
        let result = try Subprocess.run(
            "tether", ["receive", line.port, target.url.path, "--command", "sb c.bin"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.contents(atPath: target.path("c.bin")) == data)
        line.process.send(SIGTERM)
    }

    /// Lua's `send_file` and `receive_file` over a shell on the line: `rb` takes the
    /// file, `sb` sends it back, both byte-identical; a file that cannot be read is
    /// `nil` and the message, not an error.
    @Test func luaSendsAndReceivesFiles() throws {
        let source = try TemporaryFolder()
        let target = try TemporaryFolder()
        let back = try TemporaryFolder()
        let data = Self.data(5000, seed: 13)
        try data.write(to: source.url.appendingPathComponent("l.bin"))
        let script = """
            local ok, err = device.send_file("\(source.path("l.bin"))", { command = "rb" })
            check(ok == true, "sent: " .. tostring(err))
            local paths, problem = device.receive_file("\(back.url.path)", { command = "sb l.bin" })
            check(paths ~= nil and #paths == 1 and paths[1] == "\(back.path("l.bin"))", "received: " .. tostring(problem))
            local none, message = device.send_file("/nonexistent/x.bin")
            check(none == nil and message == "cannot read '/nonexistent/x.bin': No such file or directory", message)
            """
        try script.write(toFile: source.path("t.lua"), atomically: true, encoding: .utf8)
        let line = try Line(["sh"], in: target.url.path)
        let result = try Subprocess.run("tether", ["run", source.path("t.lua"), "--port", line.port], timeout: 120)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("3 passed, 0 failed"), "\(result.stdout)")
        #expect(FileManager.default.contents(atPath: target.path("l.bin")) == data)
        #expect(FileManager.default.contents(atPath: back.path("l.bin")) == data)
        line.process.send(SIGTERM)
    }

    /// Lua transfer options a script gets wrong are errors at the line (exit 65).
    @Test(arguments: [
        ("device.send_file(5)", "t.lua:1: send_file: path must be a string, got number"),
        (
            "device.send_file('a', { protcol = 'ymodem' })",
            "t.lua:1: send_file: unknown option 'protcol' (protocol, command, start_timeout, overwrite)"
        ),
        (
            "device.receive_file('.', { protocol = 'zmodem' })",
            "t.lua:1: receive_file: protocol must be xmodem, xmodem-crc, xmodem-1k or ymodem, got zmodem"
        ),
        (
            "device.send_file('a', { start_timeout = 0 })",
            "t.lua:1: send_file: start_timeout must be a whole number of seconds from 1 to 3600"
        ),
    ])
    func luaTransferMistakes(script: String, message: String) throws {
        let folder = try TemporaryFolder()
        try script.write(toFile: folder.path("t.lua"), atomically: true, encoding: .utf8)
        let result = try Subprocess.run("tether", ["run", folder.path("t.lua"), "--sim"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stdout.contains(message) || result.stderr.contains(message), "\(result.stdout)\(result.stderr)")
    }

    /// No receiver on the line: after --start-timeout, exit 75 with the reason.
    @Test func receiverThatNeverStarts() throws {
        let folder = try TemporaryFolder()
        try Data([1, 2, 3]).write(to: folder.url.appendingPathComponent("a.bin"))
        let line = try Line(["sleep", "5"], in: folder.url.path)
        let result = try Subprocess.run("tether", ["send", line.port, folder.path("a.bin"), "--start-timeout", "1"])
        #expect(result.status == 75, "\(result.stderr)")
        #expect(
            result.stderr.contains("Error: transfer failed after 0 B: the receiver never started (no C or NAK in 1 s)"))
        line.process.send(SIGTERM)
    }

    /// Ctrl-C while waiting for the receiver: CAN CAN goes out, exit 130.
    @Test func ctrlCCancels() throws {
        let folder = try TemporaryFolder()
        try Data([1, 2, 3]).write(to: folder.url.appendingPathComponent("a.bin"))
        let line = try Line(["sleep", "5"], in: folder.url.path)
        let tether = try Subprocess("tether", ["send", line.port, folder.path("a.bin")])
        usleep(1_000_000)
        tether.send(SIGINT)
        let result = tether.wait(timeout: 20)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("cancelled"), "\(result.stderr)")
        line.process.send(SIGTERM)
    }

    /// Missing file 66, a second file for XMODEM 64, a missing folder 73 — before any port opens.
    @Test func badInput() throws {
        let missing = try Subprocess.run("tether", ["send", "--sim", "/nonexistent/a.bin"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "Error: cannot read '/nonexistent/a.bin': No such file or directory\n")
        let two = try Subprocess.run("tether", ["send", "--sim", "-p", "xmodem", "/etc/hostname", "/etc/hostname"])
        #expect(two.status == 64)
        let folder = try Subprocess.run("tether", ["receive", "--sim", "/nonexistent/"])
        #expect(folder.status == 73, "\(folder.stderr)")
        // A folder nobody may write in: refused before the transfer, which said
        // "Received 1 file" and then lost it.
        let locked = try TemporaryFolder()
        chmod(locked.url.path, 0o500)
        // root may write anywhere: as root, it runs as nobody.
        let tether = [Subprocess.productsDirectory.path + "/tether", "receive", "--sim", locked.url.path]
        let unwritable =
            getuid() == 0
            ? try Subprocess.run(path: "/usr/sbin/runuser", ["-u", "nobody", "--"] + tether)
            : try Subprocess.run(path: tether[0], Array(tether.dropFirst()))
        #expect(unwritable.status == 73, "\(unwritable.stderr)")
        #expect(
            unwritable.stderr.hasPrefix("Error: cannot write in '\(locked.url.path)': Permission denied"),
            "\(unwritable.stderr)")
        #expect(!unwritable.stdout.contains("Received"))
        chmod(locked.url.path, 0o700)
        let kind = try Subprocess.run("tether", ["send", "--sim", "-p", "zmodem", "/etc/hostname"])
        #expect(kind.status == 64)
        #expect(kind.stderr.contains("zmodem"), "\(kind.stderr)")
        let command = try Subprocess.run("tether", ["send", "--sim", "--command", "loady\\q", "/etc/hostname"])
        #expect(command.status == 64)
        #expect(command.stderr.hasPrefix("Error: '--command': Bad escape '\\q'"), "\(command.stderr)")
    }

    /// The simulator's sender on a line that duplicates some of its writes and puts
    /// noise before others: the 64 KiB arrive identical.
    @Test func noisySimulatorLine() throws {
        let target = try TemporaryFolder()
        let result = try Subprocess.run(
            "tether", ["receive", "--sim", target.url.path, "--duplicate", "0.02", "--garbage", "0.02"], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        let data = try #require(FileManager.default.contents(atPath: target.path("tether-sim.bin")))
        #expect(data.count == 65_536)
        #expect(data == Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }))
    }
}
