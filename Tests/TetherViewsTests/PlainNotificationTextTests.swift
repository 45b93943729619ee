import Foundation
import Testing
import TetherViews

@testable import TetherPresenter

/// The text view writes a plain notification (no stamp before it, no pending text)
/// straight into its output's bytes; what it writes must be what the general path
/// writes for the same line — here, the general path's text for a run's device,
/// whose `[NAME] ` stamp takes it there, with the stamp taken off.
@Suite struct PlainNotificationTextTests {
    static let time = Date(timeIntervalSince1970: 1_800_000_000)

    /// The view's text for a notification of `bytes` ending as `ending`, for a device
    /// named `device` (or none), with colour (a terminal) or without.
    private func rendered(
        _ bytes: [UInt8], _ ending: ViewLine.Ending = .terminated, device: String? = nil, colour: Bool = false
    ) -> String {
        let output = BufferSink(isTerminal: colour)
        let view = TextView(output: output, diagnostics: BufferSink(), environment: [:])
        let event = ViewEvent.notification(ViewLine(bytes: bytes, ending: ending), readings: [])
        view.render(ViewRecord(time: Self.time, event: event), state: ViewState(port: "p", device: device))
        return output.text
    }

    private func expectSameAsGeneralPath(_ bytes: [UInt8], _ ending: ViewLine.Ending = .terminated) {
        for colour in [false, true] {
            let stamp = colour ? "\u{1B}[2m[d]\u{1B}[0m " : "[d] "
            let general = rendered(bytes, ending, device: "d", colour: colour)
            #expect(general.hasPrefix(stamp))
            #expect(rendered(bytes, ending, colour: colour) == String(general.dropFirst(stamp.count)), "\(bytes)")
        }
    }

    @Test func aFastDevicesLineIsWrittenAsItWas() {
        #expect(
            rendered(Array("0000000001 the quick brown fox jumps...".utf8))
                == "0000000001 the quick brown fox jumps...\n")
        #expect(rendered(Array("OK".utf8), colour: true) == "\u{1B}[36mOK\u{1B}[0m\n")
    }

    @Test func escapesAndLineEndsAreAsTheGeneralPathWritesThem() {
        let lines: [[UInt8]] = [
            [], Array("tab\there \"q\" \\ /".utf8) + [0x00, 0x1B, 0x7F], [0x2D, 0x87, 0xFF],
            Array("é€😀\u{85}\u{9B}".utf8),
            [0x41, 0x08, 0x42], Array("Hit any key:  2 \u{08}\u{08}\u{08} 1 ".utf8),
        ]
        for line in lines {
            for ending in [ViewLine.Ending.terminated, .overlong, .unterminated] {
                expectSameAsGeneralPath(line, ending)
            }
        }
    }

    @Test func fuzzedLinesAreWrittenAsTheGeneralPathWritesThem() {
        // A seeded linear congruential generator (Knuth's MMIX constants): a failing
        // case replays.
        var state: UInt64 = 0x7E7E_0024
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet: [[UInt8]] = [
            [0x00], [0x07], [0x08], [0x09], [0x1B], [0x7F], [0x5C], [0x41], [0x20], [0x80], [0xC3], [0xE2, 0x80],
            [0xFF], Array("é".utf8), Array("\u{9B}".utf8), Array("\u{2028}".utf8), Array("😀".utf8),
        ]
        for _ in 0..<1000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(next() % 24) { bytes += alphabet[Int(next() % UInt64(alphabet.count))] }
            expectSameAsGeneralPath(bytes)
        }
    }

    /// A pending text written to a file is finished by the line it began, not
    /// written again: the plain path is not taken while pending text is shown.
    @Test func theLineAPendingTextBeganFinishesIt() {
        let output = BufferSink()
        let view = TextView(output: output, diagnostics: BufferSink(), environment: [:])
        let state = ViewState(port: "p")
        view.render(ViewRecord(time: Self.time, event: .pendingText(ViewLine("login: "))), state: state)
        view.render(
            ViewRecord(time: Self.time, event: .notification(ViewLine("login: root"), readings: [])), state: state)
        view.render(ViewRecord(time: Self.time, event: .notification(ViewLine("next"), readings: [])), state: state)
        #expect(output.text == "login: root\nnext\n")
    }
}
