import Foundation
import Synchronization
import Testing

@testable import TetherModel
@testable import TetherPresenter

/// ``Presenter/present(_:to:observe:until:)``: the loop between the Model's events and a
/// view, and ``RunPresenter``'s tally of a script run.
@Suite struct PresentLoopTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000)

    /// A view that writes down what it is called with.
    final class CallRecorder: DeviceView {
        let calls = Mutex<[String]>([])

        func render(_ record: ViewRecord, state: ViewState) {
            calls.withLock { $0.append("render \(state.counts.notifications)") }
        }
        func stateDidChange(_ state: ViewState) { calls.withLock { $0.append("state") } }
        func finish(_ state: ViewState) { calls.withLock { $0.append("finish") } }
    }

    private func events(_ kinds: [DeviceEvent.Kind], delivery: EventDelivery = .lossless) -> DeviceEvents {
        let subscriber = EventSubscriber(delivery, wakeLoop: {})
        _ = subscriber.deliver(kinds.map { DeviceEvent(time: time, kind: $0) })
        subscriber.finish()
        return DeviceEvents(subscriber)
    }

    private func notifications(_ count: Int) -> [DeviceEvent.Kind] {
        (0..<count).map { .session(.notification(Line("!N \($0)"))) }
    }

    @Test func everyRecordIsRenderedThenTheViewFinishes() async {
        let view = CallRecorder()
        var presenter = Presenter(port: "p")
        let seen = Mutex(0)
        let state = await presenter.present(
            events(notifications(2)), to: view,
            observe: { _, _ in
                seen.withLock { $0 += 1 }
            })
        #expect(view.calls.withLock { $0 } == ["render 1", "state", "render 2", "state", "finish"])
        #expect(seen.withLock { $0 } == 2)
        #expect(state.counts.notifications == 2)
        #expect(presenter.state == state)
    }

    /// `monitor --count 2` with three notifications in one batch shows exactly two.
    @Test func isDoneStopsAfterTheRecordThatSatisfiesIt() async {
        let view = CallRecorder()
        var presenter = Presenter(port: "p")
        let state = await presenter.present(
            events(notifications(3)), to: view, until: { $0.counts.notifications >= 2 })
        #expect(view.calls.withLock { $0 } == ["render 1", "state", "render 2", "state", "finish"])
        #expect(state.counts.notifications == 2)
    }

    /// A lossy observer that fell behind gets a `missed` record with the count — here
    /// at the end, for a gap still open when the device closed.
    @Test func aLossyObserverSeesAMissedRecord() async {
        let seen = Mutex<[ViewEvent]>([])
        var presenter = Presenter(port: "p")
        let state = await presenter.present(
            events(notifications(5), delivery: .lossy(bufferLimit: 2)), to: CallRecorder(),
            observe: { record, _ in seen.withLock { $0.append(record.event) } })
        #expect(
            seen.withLock { $0 } == [
                .notification(ViewLine("!N 0"), readings: []), .notification(ViewLine("!N 1"), readings: []),
                .missed(count: 3),
            ])
        #expect(state.counts.missed == 3)
        #expect(state.counts.notifications == 2)
    }

    @Test func aRunTalliesChecksAndIgnoresUnknownDevices() {
        var run = RunPresenter(devices: [(name: nil, port: "sim:env"), (name: "psu", port: "/dev/ttyUSB1")])
        let location = SourceLocation(file: "t.txt", line: 1)
        for status in [CheckResult.Status.passed, .passed, .failed, .timedOut, .notRun] {
            _ = run.handle(.checked(CheckResult(status: status, location: location, description: "d")), at: time)
        }
        let emitted = run.handle(.emitted(.int(1), location: nil), at: time)
        #expect(emitted == RunRecord(time: time, event: .emitted(.int(1), location: nil)))
        let summary = run.finish(outcome: .failed, unhandled: 2, duration: .milliseconds(40), at: time)
        var expected = RunSummary()
        (expected.passed, expected.failed, expected.timedOut, expected.notRun) = (2, 1, 1, 1)
        (expected.unhandled, expected.duration, expected.outcome) = (2, .milliseconds(40), .failed)
        #expect(summary == RunRecord(time: time, event: .finished(expected)))

        let notification = DeviceEvent(time: time, kind: .session(.notification(Line("!X"))))
        let psu = run.handle(notification, from: "psu")
        #expect(psu.records.map(\.event) == [.notification(ViewLine("!X"), readings: [])])
        #expect(psu.state?.device == "psu" && psu.state?.port == "/dev/ttyUSB1")
        #expect(run.state(of: nil)?.counts.notifications == 0)
        let unknown = run.handle(notification, from: "dmm")
        #expect(unknown.records.isEmpty && unknown.state == nil)
    }

    /// A trial's `run --format json` wrote `check` at …40.300 and then `pending_text`
    /// at …40.299: the device event, stamped by the port loop, reached the run after
    /// the script's record. Records leave in time order: the late event takes the
    /// check's time; an event observed later keeps its own.
    @Test func runRecordsLeaveInTimeOrder() {
        var run = RunPresenter(devices: [(name: nil, port: "sim:env")])
        let location = SourceLocation(file: "login.txt", line: 5)
        let checkTime = time.addingTimeInterval(0.300)
        let check = run.handle(
            .checked(CheckResult(status: .passed, location: location, description: "=~ # $")), at: checkTime)
        #expect(check.time == checkTime)
        let pending = DeviceEvent(
            time: time.addingTimeInterval(0.299),
            kind: .session(.pendingText(Line(Array("root@qemux86:~# ".utf8), ending: .unterminated), start: 90)))
        #expect(run.handle(pending, from: nil).records.map(\.time) == [checkTime])
        let later = DeviceEvent(time: time.addingTimeInterval(0.350), kind: .session(.notification(Line("Linux"))))
        #expect(run.handle(later, from: nil).records.map(\.time) == [time.addingTimeInterval(0.350)])
        let summary = run.finish(outcome: .passed, unhandled: 0, duration: .milliseconds(350), at: checkTime)
        #expect(summary.time == time.addingTimeInterval(0.350))
    }
}
