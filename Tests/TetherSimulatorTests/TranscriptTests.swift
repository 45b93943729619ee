import Foundation
import Glibc
import Testing

@testable import TetherSimulator

@Suite struct TranscriptTests {
    @Test func aLineHasTimeDirectionHexAndEscapedText() {
        let time = timespec(tv_sec: 1_795_986_000, tv_nsec: 123_456_789)
        let line = Transcript.line(time: time, direction: .received, bytes: Array("*IDN?\n".utf8))
        #expect(line == "2026-11-29T21:00:00.123Z < 2a 49 44 4e 3f 0a  \"*IDN?\\n\"\n")
        let sent = Transcript.line(time: time, direction: .sent, bytes: [0x22, 0x5C, 0x00, 0xFF, 0x0D])
        #expect(sent == "2026-11-29T21:00:00.123Z > 22 5c 00 ff 0d  \"\\\"\\\\\\x00\\xff\\r\"\n")
    }

    @Test func theFileHasBothDirectionsAndEvents() throws {
        let path = temporaryPath("transcript")
        defer { unlink(path) }
        let simulator = try Simulator(transcript: try Transcript(path: path))
        let client = try PtyClient(path: simulator.devicePath)
        client.send("*IDN?\n")
        #expect(client.readLine() == "TETHER,ENV-1,SIM0001,1.0")
        simulator.stop()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("* client connected to \(simulator.devicePath)"))
        #expect(text.contains("< 2a 49 44 4e 3f 0a  \"*IDN?\\n\""))
        #expect(text.contains("  \"TETHER,ENV-1,SIM0001,1.0\\r\\n\""))
        #expect(text.hasSuffix(" * stopped\n"))
    }
}
