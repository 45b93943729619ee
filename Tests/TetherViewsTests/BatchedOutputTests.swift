import Foundation
import Synchronization
import Testing
import TetherPresenter

@testable import TetherViews

/// The views hold the records of one batch of a device's events and write them in one
/// go at its end (`DeviceView.renderBatch`, `BatchingSink`): every record whole, in
/// order, and a diagnostic on the other stream after the lines before it.
@Suite struct BatchedOutputTests {
    /// A sink that keeps each write apart, so a test sees how the output was cut.
    final class WriteRecorder: OutputSink {
        private let writes = Mutex<[String]>([])
        let isTerminal = false
        func write(_ text: String) { writes.withLock { $0.append(text) } }
        var all: [String] { writes.withLock { $0 } }
    }

    static let time = Date(timeIntervalSince1970: 1_800_000_000.25)

    static func notification(_ number: Int) -> ViewRecord {
        ViewRecord(time: time, event: .notification(ViewLine("line \(number)"), readings: []))
    }

    @Test func aBatchIsOneWriteOfWholeRecordsAtItsEnd() {
        let sink = WriteRecorder()
        let view = JSONView(output: sink)
        let state = ViewState(port: "p")
        view.renderBatch {
            for number in 0..<3 { view.render(Self.notification(number), state: state) }
            #expect(sink.all.isEmpty)
        }
        #expect(sink.all.count == 1)
        let lines = sink.all[0].split(separator: "\n")
        #expect(lines.count == 3 && sink.all[0].hasSuffix("\n"))
        #expect(lines.enumerated().allSatisfy { $1.contains("\"line\":\"line \($0)\"") })
    }

    @Test func outsideABatchEachRecordIsWrittenAtOnce() {
        let sink = WriteRecorder()
        let view = JSONView(output: sink)
        view.render(Self.notification(0), state: ViewState(port: "p"))
        #expect(sink.all.count == 1)
        view.render(Self.notification(1), state: ViewState(port: "p"))
        #expect(sink.all.count == 2)
    }

    @Test func aLongBatchIsWrittenInPiecesOfWholeRecords() throws {
        let sink = WriteRecorder()
        let view = JSONView(output: sink)
        let count = 3 * BatchingSink.limit / 80
        view.renderBatch {
            for number in 0..<count { view.render(Self.notification(number), state: ViewState(port: "p")) }
        }
        #expect(sink.all.count > 1)
        for piece in sink.all {
            #expect(piece.hasSuffix("\n"))
            for line in piece.split(separator: "\n") {
                _ = try JSONSerialization.jsonObject(with: Data(line.utf8))
            }
        }
        #expect(sink.all.joined().split(separator: "\n").count == count)
    }

    @Test func aDiagnosticComesAfterTheLinesHeldBeforeIt() {
        let sink = WriteRecorder()
        let view = TextView(output: sink, diagnostics: sink, environment: [:])
        let state = ViewState(port: "p")
        view.renderBatch {
            view.render(Self.notification(0), state: state)
            view.render(
                ViewRecord(time: Self.time, event: .disconnected(port: "p", reason: "device hung up")), state: state)
            view.render(Self.notification(1), state: state)
        }
        #expect(sink.all == ["line 0\n", "disconnected: p: device hung up\n", "line 1\n"])
    }

    @Test func everyViewOfAFanOutHoldsTheBatch() {
        let first = WriteRecorder()
        let second = WriteRecorder()
        let view = FanOutView([TextView(output: first, environment: [:]), JSONView(output: second)])
        view.renderBatch {
            for number in 0..<2 { view.render(Self.notification(number), state: ViewState(port: "p")) }
            #expect(first.all.isEmpty && second.all.isEmpty)
        }
        #expect(first.all == ["line 0\nline 1\n"])
        #expect(second.all.count == 1)
    }
}
