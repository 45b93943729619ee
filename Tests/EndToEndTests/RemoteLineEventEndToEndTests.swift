import Foundation
import Glibc
import Testing
import TetherSimulator

/// Line events over RFC 2217 through Debian's ser2net. tether asks for the server's
/// line and modem state (SET-LINESTATE-MASK, SET-MODEMSTATE-MASK) at every open; ser2net
/// exporting a pty never sees a break or a framing error there (a pty cannot carry
/// one, docs/HARDWARE.md), so what this shows is that the masks leave the session
/// whole and that a NUL and 0xFF 0x00 0x00 sent as data stay data, never a break. The
/// notifications themselves are decoded in `RFC2217LineEventTests` from a scripted
/// server's NOTIFY-LINESTATE and NOTIFY-MODEMSTATE.
@Suite(.serialized) struct RemoteLineEventEndToEndTests {
    @Test func dataThatLooksLikeABreakStaysDataThroughSer2net() throws {
        let folder = try TemporaryFolder()
        let stream: [UInt8] = [0x41, 0x00, 0x42, 0x0A, 0xFF, 0x00, 0x00, 0x43, 0x0A]
        let simulator = try Simulator(device: ScriptedDevice(onOpen: [.init(stream, after: .milliseconds(500))]))
        defer { simulator.stop() }
        let server = try Ser2net(exporting: simulator.devicePath, in: folder)
        let result = try Subprocess.run(
            "tether", ["monitor", server.telnetAddress, "--count", "2", "--format", "json"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        #expect(!records.contains { $0["type"] as? String == "line_event" }, "\(result.stdout)")
        let lines = records.filter { $0["type"] as? String == "notification" }
        #expect(lines.map { $0["line"] as? String } == ["A\u{0}B", "\u{FFFD}\u{0}\u{0}C"])
        #expect(lines.last?["line_hex"] as? String == "ff000043")
        #expect(!result.stderr.contains("arning"), "\(result.stderr)")
    }
}
