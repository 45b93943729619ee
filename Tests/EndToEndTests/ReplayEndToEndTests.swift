import Foundation
import Testing
import TetherSimulator

/// A JSON log replayed with `scripts/replay-log` (docs/JSON.md, "Replaying a log") gives
/// back the device's exact byte stream: compared byte for byte with the simulator's
/// own record of what it sent (`Transcript`, `tether-sim --log`).
@Suite struct ReplayEndToEndTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The bytes of the `>` lines of a simulator transcript (what the device sent).
    static func sentBytes(inTranscript text: String) -> [UInt8] {
        text.split(separator: "\n").flatMap { line -> [UInt8] in
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count > 2, fields[1] == ">" else { return [] }
            return fields[2...].prefix { !$0.isEmpty }.compactMap { UInt8($0, radix: 16) }
        }
    }

    /// Every line end (CR, LF, CR LF), a 0xFF, bytes that are not UTF-8, a colour
    /// sequence tether removes from the text, a NUL and a line longer than the longest
    /// (65 536 bytes, cut with no line end): the replay is the stream.
    @Test func aMonitorLogReplaysByteForByte() throws {
        let folder = try TemporaryFolder()
        let stream: [UInt8] =
            Array("one\r\ntwo\rthree\n".utf8) + [0xFF, 0x41, 0x0A] + [0x2D, 0x87, 0x44, 0x0D, 0x0A]
            + Array("\u{1B}[31mFAIL\u{1B}[0m\r\n".utf8) + [0x42, 0x00, 0x43, 0x0A]
            + Array(repeating: 0x5A, count: 65_546)
            + Array("\n".utf8)
        let transcript = try Transcript(path: folder.path("sim.log"))
        let device = ScriptedDevice(onOpen: [.init(stream, after: .milliseconds(300))])
        let simulator = try Simulator(device: device, transcript: transcript)
        defer { simulator.stop() }
        let log = folder.path("monitor.jsonl")
        let monitor = try Subprocess.run(
            "tether",
            [
                "monitor", simulator.devicePath, "--count", "9", "--format", "json", "--log", log,
            ], timeout: 60)
        #expect(monitor.status == 0, "\(monitor.stderr)")
        let script = Self.root.appendingPathComponent("scripts/replay-log").path
        let replayed = folder.path("replayed.bin")
        let replay = try Subprocess.run(path: "/bin/sh", ["-c", "\"$0\" \"$1\" > \"$2\"", script, log, replayed])
        #expect(replay.status == 0, "\(replay.stderr)")
        let sent = Self.sentBytes(inTranscript: try String(contentsOfFile: folder.path("sim.log"), encoding: .utf8))
        #expect(sent == stream)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: replayed))) == sent)
    }

    /// Records not as tether writes them gave Python tracebacks and exit 1 (a new
    /// user's trial): each is now a one-line error, exit 65.
    @Test(arguments: [
        #"{"type":"notification","line":"a","line_eol_hex":"zz"}"#,
        #"{"type":"reply","lines":["a"],"lines_eol_hex":[]}"#,
        #"{"type":"notification","line":5}"#,
        "[1,2]",
        #"{"type":"reply","lines":"abc"}"#,
    ])
    func aRecordNotAsTetherWritesItIsRefused(record: String) throws {
        let folder = try TemporaryFolder()
        let log = folder.path("bad.jsonl")
        try (record + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let script = Self.root.appendingPathComponent("scripts/replay-log").path
        let replay = try Subprocess.run(path: script, [log])
        #expect(replay.status == 65, "\(replay.stderr)")
        #expect(replay.stderr.hasPrefix("Error: \(log):1: not a"), "\(replay.stderr)")
        #expect(!replay.stderr.contains("Traceback"))
    }
}
