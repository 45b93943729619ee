import Foundation
import Testing

@testable import TetherModel
@testable import TetherPresenter

/// Pending text (a line still arriving) from the Model to the views' records and state.
@Suite struct PendingTextPresenterTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000)

    private func pending(_ text: String) -> DeviceEvent {
        DeviceEvent(time: time, kind: .session(.pendingText(Line(Array(text.utf8), ending: .unterminated), start: 0)))
    }

    /// Each report is a `pendingText` record, held in the state until the line it
    /// begins ends; it counts as no notification.
    @Test func pendingTextIsARecordAndStateUntilItsLineEnds() {
        var presenter = Presenter(port: "/dev/ttyUSB0")
        let first = presenter.handle(pending("Erasing flash: "))
        #expect(
            first == [
                ViewRecord(
                    time: time,
                    event: .pendingText(ViewLine(bytes: Array("Erasing flash: ".utf8), ending: .unterminated)))
            ])
        _ = presenter.handle(pending("Erasing flash: ."))
        #expect(presenter.state.pendingText?.text == "Erasing flash: .")
        #expect(presenter.state.counts.notifications == 0)
        let line = presenter.handle(
            DeviceEvent(time: time, kind: .session(.notification(Line("Erasing flash: .done")))))
        #expect(line == [ViewRecord(time: time, event: .notification(ViewLine("Erasing flash: .done"), readings: []))])
        #expect(presenter.state.pendingText == nil)
        #expect(presenter.state.counts.notifications == 1)
    }

    /// `query` shows replies only: pending text is kept in the state, no record.
    @Test func pendingTextCanBeLeftOutOfTheRecords() {
        var presenter = Presenter(port: "p")
        presenter.showsPendingText = false
        #expect(presenter.handle(pending("+CSQ: 2")).isEmpty)
        #expect(presenter.state.pendingText?.text == "+CSQ: 2")
    }

    /// A command sent meanwhile does not end it (the device's line is still open).
    @Test func aSentCommandLeavesThePendingText() {
        var presenter = Presenter(port: "p")
        _ = presenter.handle(pending("login: "))
        _ = presenter.handle(
            DeviceEvent(
                time: time, kind: .session(.sent(RequestID(value: 1), command: "root", bytes: Array("root".utf8)))))
        #expect(presenter.state.pendingText?.text == "login: ")
    }
}
