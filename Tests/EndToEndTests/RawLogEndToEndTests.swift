import Foundation
import Testing
import TetherSimulator

/// `--log FILE --log-format raw`: exactly the bytes the device sent, nothing else
/// (picocom's `--logfile`), byte for byte what the simulator's own log says it sent.
@Suite(.serialized) struct RawLogEndToEndTests {
    /// A console's replies with CR LF, blank lines and a prompt without a line end:
    /// none of it is framing to the raw log.
    @Test func queryLogsTheBytesTheDeviceSent() throws {
        let folder = try TemporaryFolder()
        let simulator = try ConnectEndToEndTests.simulator("prompt-console", in: folder)
        let log = folder.path("raw.bin")
        let result = try Subprocess.run(
            "tether",
            ["query", folder.path("device"), "--dialect", "prompt", "--prompt", "=> ", "--log", log]
                + ["--log-format", "raw", "version", "printenv", "nope"])
        simulator.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let sent = TranscriptBytes.sent(in: folder.path("sim.log"))
        #expect(!sent.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == Data(sent))
    }

    /// In `connect`, line mode and then raw mode (Ctrl-T m): the same bytes, whichever
    /// mode showed them.
    @Test func connectLogsTheBytesTheDeviceSentInEitherMode() throws {
        let folder = try TemporaryFolder()
        let simulator = try ConnectEndToEndTests.simulator("env", in: folder)
        let log = folder.path("raw.bin")
        let terminal = try ConnectEndToEndTests.connect(folder, ["--log", log, "--log-format", "raw"])
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.type("*IDN?")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "*IDN? → TETHER"))
        terminal.press("C-t", "m")
        #expect(terminal.waitForScreen { $0.split(separator: "\n").contains("raw mode") })
        terminal.type("SETP?")
        terminal.press("C-j")
        #expect(terminal.waitForScreen(containing: "22.0"), "\(terminal.screen)")
        #expect(terminal.quitsCleanly())
        simulator.stop()
        let sent = TranscriptBytes.sent(in: folder.path("sim.log"))
        #expect(String(decoding: sent, as: UTF8.self).contains("22.0"))
        let logged = try Data(contentsOf: URL(fileURLWithPath: log))
        #expect(logged == Data(sent), "\(String(decoding: logged, as: UTF8.self).debugDescription)")
    }

    @Test func aBadLogFormatIsAUsageError() throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--log", "/tmp/x", "--log-format", "bytes", "A"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Please provide one of 'json', 'transcript', 'raw'."), "\(result.stderr)")
    }
}
