import Foundation
import Testing
import TetherPresenter
import TetherViews

@testable import TetherModel

/// Payloads in the views: text shows their length and first bytes in hex, never raw;
/// JSON carries them exactly (docs/JSON.md, "Binary payloads").
@Suite struct PayloadViewTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000.25)
    static let block = (0..<2000).map { UInt8($0 % 256) }
    static let blockLine = Line(Array("#42000".utf8) + block, terminator: .lf, payloadRange: 6..<2006)
    static let ipd = Line(Array("+IPD,1,11:OK\r\nHELLO\r\n".utf8), payloadRange: 10..<21)

    private func render(_ events: [DeviceEvent.Kind], with view: (BufferSink) -> any DeviceView) -> String {
        let output = BufferSink()
        let chosen = view(output)
        var presenter = Presenter(port: "/dev/ttyUSB0")
        for kind in events {
            for record in presenter.handle(DeviceEvent(time: time, kind: kind)) {
                chosen.render(record, state: presenter.state)
            }
        }
        return output.text
    }

    private var events: [DeviceEvent.Kind] {
        [
            .session(
                .replied(
                    RequestID(value: 1), command: "CURV?", reply: Reply(lines: [Self.blockLine]),
                    roundTrip: .milliseconds(3))),
            .session(.notification(Self.ipd)),
        ]
    }

    @Test func textShowsLengthAndFirstBytes() {
        let text = render(events) { TextView(output: $0, diagnostics: BufferSink(), environment: [:]) }
        #expect(
            text == """
                CURV? → #42000 <2000 bytes: 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f …>  (3 ms)
                +IPD,1,11: <11 bytes: 4f 4b 0d 0a 48 45 4c 4c 4f 0d 0a>

                """)
    }

    @Test func jsonCarriesTheExactBytes() throws {
        let json = render(events) { JSONView(output: $0) }
        let objects = try json.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects[0]["lines"] as? [String] == ["#42000"])
        #expect(objects[0]["lines_payload_length"] as? [Int] == [2000])
        #expect(objects[0]["lines_payload_offset"] as? [Int] == [6])
        let hex = try #require((objects[0]["lines_payload_hex"] as? [String])?.first)
        #expect(hex.count == 4000)
        #expect(hex.hasPrefix("000102030405060708090a0b0c0d0e0f"))
        #expect(objects[1]["line"] as? String == "+IPD,1,11:")
        #expect(objects[1]["line_payload_hex"] as? String == "4f4b0d0a48454c4c4f0d0a")
        #expect(objects[1]["line_payload_length"] as? Int == 11)
        #expect(objects[1]["line_hex"] == nil)
    }
}

/// `--hex` shows each line exactly as received, with the line end that ended it.
@Suite struct HexViewTests {
    @Test func hexShowsTheLineEnd() {
        let output = BufferSink()
        let view = TextView(output: output, diagnostics: BufferSink(), showsHex: true, environment: [:])
        var presenter = Presenter(port: "/dev/ttyUSB0")
        let lines = [
            Line(Array("OK".utf8), terminator: .crlf), Line(Array("A".utf8), terminator: .cr),
            Line([], terminator: .lf), Line(Array("+IPD,1,1:x".utf8), payloadRange: 9..<10),
        ]
        for line in lines {
            for record in presenter.handle(DeviceEvent(time: Date(), kind: .session(.notification(line)))) {
                view.render(record, state: presenter.state)
            }
        }
        #expect(output.text == "4f 4b 0d 0a\n41 0d\n0a\n2b 49 50 44 2c 31 2c 31 3a 78\n")
    }
}
