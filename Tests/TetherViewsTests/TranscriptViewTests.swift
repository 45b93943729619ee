import Foundation
import Testing

@testable import TetherPresenter
@testable import TetherViews

/// ``TranscriptView``, ``LineSplitter`` and ``Timestamper``.
@Suite struct TranscriptViewTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000.25)

    @Test func countingStylesCountFromTheFirstAndThePreviousStamp() {
        let start = Timestamper(.hour24Start)
        let delta = Timestamper(.hour24Delta)
        for clock in [start, delta] { _ = clock.stamp(time) }
        #expect(start.stamp(time.addingTimeInterval(3_725.5)) == "01:02:05.500")
        #expect(delta.stamp(time.addingTimeInterval(1.004)) == "00:00:01.004")
        #expect(delta.stamp(time.addingTimeInterval(1.5)) == "00:00:00.496")
        #expect(Timestamper(.iso8601).stamp(time) == "2027-01-15T08:00:00.250Z")
    }

    /// A CR LF split between two reads is one line end; a lone CR is one too.
    @Test func splitterKeepsLineEndsWhole() {
        var splitter = LineSplitter()
        #expect(splitter.take(Array("a\r".utf8), at: time).isEmpty)
        #expect(
            splitter.take(Array("\n\nb\rc".utf8), at: time).map(\.bytes) == [
                [0x61, 0x0D, 0x0A], [0x0A], [0x62, 0x0D],
            ])
        #expect(splitter.flush()?.bytes == [0x63])
        #expect(splitter.flush() == nil)
        var typed = LineSplitter(holdsTrailingCR: false)
        #expect(typed.take(Array("ls\r".utf8), at: time).map(\.bytes) == [Array("ls\r".utf8)])
    }

    /// From the byte stream, a line ended by CR is written before the next record (no LF
    /// can join it now) and the text after the last line end (a prompt) before the next
    /// command; keystrokes in raw mode do not cut the line being echoed. (Found trying
    /// `query --format transcript A B` on a CR device: `> B` came before `< R-A\r`.)
    @Test func heldBytesAreWrittenBeforeTheRecordsAfterThem() {
        let sink = BufferSink()
        let view = TranscriptView(output: sink, timestamps: Timestamper(.hour24Start))
        let state = ViewState(port: "/dev/ttyUSB0")
        let records: [ViewEvent] = [
            .received(Array("R-A\r".utf8)),
            .sent(command: ViewLine(bytes: Array("B".utf8), terminator: .cr)),
            .received(Array("=> ".utf8)),
            .sent(command: ViewLine(bytes: Array("l".utf8), ending: .unterminated), kind: .raw),
            .received(Array("l".utf8)),
            .sent(command: ViewLine(bytes: Array("s".utf8), terminator: .cr)),
        ]
        for event in records { view.render(ViewRecord(time: time, event: event), state: state) }
        #expect(
            sink.text
                == "00:00:00.000 < R-A\\r\n00:00:00.000 > B\\r\n00:00:00.000 < => l\n00:00:00.000 > s\\r\n",
            "a raw keystroke is written with the rest of its typed line")
    }

    @Test func sessionLinesAreWrittenOnceWithTheirLineEnds() {
        let sink = BufferSink()
        let view = TranscriptView(output: sink, timestamps: Timestamper(.hour24Start))
        let state = ViewState(port: "/dev/ttyUSB0")
        let reply = Exchange(
            command: "*IDN?",
            outcome: .reply(
                lines: [ViewLine(bytes: Array("A\u{1b}B".utf8), terminator: .crlf)], finalResult: nil, isError: false,
                roundTrip: .milliseconds(3)), time: time)
        for event: ViewEvent in [
            .sent(command: ViewLine(bytes: Array("*IDN?".utf8), terminator: .lf)), .exchanged(reply),
            .notification(ViewLine(bytes: [], terminator: .cr), readings: []),
            .notification(ViewLine(bytes: Array("=> ".utf8), ending: .unterminated), readings: []),
        ] {
            view.render(ViewRecord(time: time, event: event), state: state)
        }
        #expect(
            sink.text
                == "00:00:00.000 > *IDN?\\n\n00:00:00.000 < A\\x1bB\\r\\n\n00:00:00.000 < \\r\n00:00:00.000 < => \n")
    }
}
