import Foundation
import Synchronization
import Testing
import TetherPresenter

@testable import TetherViews

/// ``FanOutView`` (the terminal's view and the `--log` file side by side) and the file
/// it writes to, ``FileSink/appending(toFile:)``.
@Suite struct FanOutViewTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000.25)

    /// A view that writes down every call it gets.
    final class CallRecorder: DeviceView {
        let name: String
        let calls: Mutex<[String]>

        init(_ name: String) {
            self.name = name
            self.calls = Mutex([])
        }

        func render(_ record: ViewRecord, state: ViewState) { note("render \(record.event)") }
        func stateDidChange(_ state: ViewState) { note("state \(state.counts.notifications)") }
        func finish(_ state: ViewState) { note("finish") }

        private func note(_ call: String) { calls.withLock { $0.append("\(name): \(call)") } }
    }

    private func records() -> [ViewRecord] {
        [
            ViewRecord(time: time, event: .connected(port: "/dev/ttyUSB0", settings: "115200 8N1")),
            ViewRecord(time: time, event: .notification(ViewLine("!READING temp=22.5"), readings: [])),
            ViewRecord(time: time, event: .missed(count: 7)),
            ViewRecord(time: time, event: .warning("write failed: EIO")),
        ]
    }

    private func temporaryPath(_ name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fanout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name).path
    }

    @Test func everyCallReachesEveryViewInOrder() {
        let first = CallRecorder("first")
        let second = CallRecorder("second")
        let view = FanOutView([first, second])
        var state = ViewState(port: "/dev/ttyUSB0")
        for record in records() {
            view.render(record, state: state)
            state.counts.notifications += 1
            view.stateDidChange(state)
        }
        view.finish(state)
        let expected =
            records().enumerated().flatMap { ["render \($1.event)", "state \($0 + 1)"] } + ["finish"]
        #expect(first.calls.withLock { $0 } == expected.map { "first: " + $0 })
        #expect(second.calls.withLock { $0 } == expected.map { "second: " + $0 })
    }

    /// A run's own records (a check, the summary) go to the views that can show them
    /// (the JSON log), not to a view that has no way to (a device-only view).
    @Test func runRecordsReachOnlyRunViews() throws {
        let deviceOnly = CallRecorder("device")
        let sink = BufferSink()
        let view = FanOutView([deviceOnly, JSONView(output: sink)])
        let check = CheckResult(
            status: .passed, location: SourceLocation(file: "t.txt", line: 1), description: "*IDN? =~ ^TETHER")
        view.render(RunRecord(time: time, event: .checked(check)))
        #expect(deviceOnly.calls.withLock { $0 }.isEmpty)
        #expect(
            sink.text
                == #"{"description":"*IDN? =~ ^TETHER","file":"t.txt","line":1,"status":"passed","time":"2027-01-15T08:00:00.250Z","type":"check","v":1}"#
                + "\n")
    }

    /// The `--log` file holds exactly what `--format json` writes, one record a line,
    /// `missed` and `warning` records included.
    @Test func theLogFileHoldsTheJSONViewsRecords() throws {
        let path = try temporaryPath("session.jsonl")
        let terminal = BufferSink()
        let view = FanOutView([JSONView(output: terminal), JSONView(output: try FileSink.appending(toFile: path))])
        let state = ViewState(port: "/dev/ttyUSB0")
        for record in records() { view.render(record, state: state) }
        let file = try String(contentsOfFile: path, encoding: .utf8)
        #expect(file == terminal.text)
        let types = try file.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(types.map { $0["type"] as? String } == ["connected", "notification", "missed", "warning"])
        #expect(types[2]["count"] as? Int == 7)
        #expect(types[3]["message"] as? String == "write failed: EIO")
    }

    /// A second run appends: the first run's records stay, and each write is one whole
    /// record (what a crash leaves behind is whole lines).
    @Test func aSecondRunAppendsAfterTheFirst() throws {
        let path = try temporaryPath("runs.jsonl")
        try "earlier\n".write(toFile: path, atomically: true, encoding: .utf8)
        for _ in 0..<2 {
            let view = JSONView(output: try FileSink.appending(toFile: path))
            view.render(records()[0], state: ViewState(port: "/dev/ttyUSB0"))
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == "earlier")
        #expect(lines[1] == lines[2])
        #expect(lines[1].hasPrefix(#"{"port":"/dev/ttyUSB0","settings":"115200 8N1""#))
    }

    /// A write that fails (here `/dev/full`) is reported once, with its reason, and
    /// nothing is written after it.
    @Test func aFailedWriteIsReportedOnce() throws {
        let reasons = Mutex<[String]>([])
        let sink = try FileSink.appending(toFile: "/dev/full") { reason in reasons.withLock { $0.append(reason) } }
        let view = JSONView(output: sink)
        for record in records() { view.render(record, state: ViewState(port: "/dev/ttyUSB0")) }
        #expect(reasons.withLock { $0 } == ["No space left on device"])
    }

    @Test func aFileThatCannotBeOpenedSaysWhy() throws {
        let folder = try temporaryPath("x")
        #expect(throws: FileSink.OpenError(path: folder + "/none/x.jsonl", reason: "No such file or directory")) {
            try FileSink.appending(toFile: folder + "/none/x.jsonl")
        }
        let directory = FileManager.default.temporaryDirectory.path
        #expect(throws: FileSink.OpenError(path: directory, reason: "Is a directory")) {
            try FileSink.appending(toFile: directory)
        }
    }
}
