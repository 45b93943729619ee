import Foundation
import Synchronization
import Testing

@testable import TetherModel
@testable import TetherPresenter

/// The records the Presenter hands views for each Model event, and the counts it keeps:
/// what `--format json` and `--log` write comes from here.
@Suite struct PresenterRecordTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000)

    private func records(_ kinds: [DeviceEvent.Kind], presenter: inout Presenter) -> [ViewEvent] {
        kinds.flatMap { presenter.handle(DeviceEvent(time: time, kind: $0)).map(\.event) }
    }

    private func records(_ kinds: [DeviceEvent.Kind]) -> (events: [ViewEvent], state: ViewState) {
        var presenter = Presenter(port: "/dev/ttyUSB0")
        let events = records(kinds, presenter: &presenter)
        return (events, presenter.state)
    }

    private static let id = RequestID(value: 1)

    @Test func aSentCommandIsARecordAndChangesNoCount() {
        let (events, state) = records([.session(.sent(Self.id, command: "*IDN?", bytes: Array("*IDN?".utf8)))])
        #expect(events == [.sent(command: ViewLine("*IDN?"))])
        #expect(state.counts == ViewState.Counts())
    }

    @Test func aReplyIsAnExchangeWithItsFinalResultAndErrorMeaning() {
        let reply = Reply(
            lines: [Line("+CPIN: SIM PIN")], finalResult: Line("+CME ERROR: 10"), isError: true,
            errorDescription: "SIM not inserted", isInDoubt: true)
        let (events, state) = records([
            .session(.replied(Self.id, command: "AT+CPIN?", reply: reply, roundTrip: .milliseconds(12)))
        ])
        let expected = Exchange(
            command: "AT+CPIN?",
            outcome: .reply(
                lines: [ViewLine("+CPIN: SIM PIN")], finalResult: ViewLine("+CME ERROR: 10"), isError: true,
                roundTrip: .milliseconds(12)), time: time, errorDescription: "SIM not inserted", isInDoubt: true)
        #expect(events == [.exchanged(expected)])
        #expect(state.recentExchanges == [expected])
        #expect(state.counts.replies == 1 && state.counts.errorReplies == 1)
        #expect(
            state.alerts == [
                Alert(time: time, kind: .errorReply, line: ViewLine("+CME ERROR: 10"), command: "AT+CPIN?")
            ])
    }

    /// `*IDN?` is recognised with spaces around it and in any letter case, and its
    /// parsed identity rides on the exchange.
    @Test(arguments: ["*IDN?", " *idn? ", "*Idn?"])
    func anIdentityReplyCarriesTheIdentity(command: String) {
        let (events, state) = records([
            .session(
                .replied(
                    Self.id, command: command, reply: Reply(lines: [Line("ACME,PSU-30,12345,2.4.1")]),
                    roundTrip: .milliseconds(3)))
        ])
        guard case .exchanged(let exchange) = events.first else {
            Issue.record("no exchange: \(events)")
            return
        }
        #expect(exchange.identity == DeviceIdentity(parsing: "ACME,PSU-30,12345,2.4.1"))
        #expect(state.identity?.model == "PSU-30")
    }

    @Test func timeoutsAndOtherFailuresAreCountedApart() {
        let (events, state) = records([
            .session(.failed(Self.id, command: "A", failure: .timedOut(.milliseconds(250)))),
            .session(.failed(Self.id, command: "B", failure: .disconnected(reason: "device hung up"))),
            .session(.failed(Self.id, command: "C", failure: .notSent(reason: "closed"))),
        ])
        #expect(
            events == [
                .exchanged(Exchange(command: "A", outcome: .timedOut(timeout: .milliseconds(250)), time: time)),
                .exchanged(
                    Exchange(
                        command: "B",
                        outcome: .failed(reason: "disconnected before the reply was complete (device hung up)"),
                        time: time)),
                .exchanged(Exchange(command: "C", outcome: .failed(reason: "not sent: closed"), time: time)),
            ])
        #expect(state.counts.timeouts == 1)
        #expect(state.counts.failures == 2)
        #expect(state.recentExchanges.map(\.command) == ["A", "B", "C"])
    }

    @Test func recentExchangesKeepTheLatest() {
        let count = ViewState.maximumRecentExchanges + 4
        let (_, state) = records(
            (0..<count).map { .session(.failed(Self.id, command: "C\($0)", failure: .timedOut(.milliseconds(1)))) })
        #expect(state.recentExchanges.map(\.command) == (4..<count).map { "C\($0)" })
        #expect(state.counts.timeouts == count)
    }

    @Test func partialAndLateRepliesKeepEveryLine() {
        let (events, state) = records([
            .session(.partialReply(Self.id, command: "AT+COPS?", lines: [Line("+COPS: 0")])),
            .session(
                .lateReply(
                    command: "AT+CSQ", reply: Reply(lines: [Line("+CSQ: 20,99")], finalResult: Line("OK")))),
        ])
        #expect(
            events == [
                .partialReply(command: "AT+COPS?", lines: [ViewLine("+COPS: 0")]),
                .lateReply(command: "AT+CSQ", lines: [ViewLine("+CSQ: 20,99"), ViewLine("OK")]),
            ])
        #expect(state.counts.lateReplies == 1)
        #expect(state.counts.replies == 0)
    }

    /// A line's ending and its exact bytes reach the view unchanged.
    @Test func aNotificationKeepsItsEndingAndExactBytes() {
        var line = Line(Array("!PART".utf8), ending: .unterminated)
        line.exactBytes = Array("\u{1B}[1m!PART".utf8)
        let (events, _) = records([.session(.notification(line))])
        #expect(
            events == [
                .notification(
                    ViewLine(
                        bytes: Array("!PART".utf8), ending: .unterminated, exactBytes: Array("\u{1B}[1m!PART".utf8)),
                    readings: [])
            ])
    }

    /// `missed` (a lossy observer fell behind) and `warning` (a Model error that does not
    /// end the session) are records of their own, counted and alerted.
    @Test func missedAndWarningRecords() {
        let (events, state) = records([
            .missed(count: 3), .missed(count: 4), .error("write failed: the port took 0 of 6 bytes in 2000 ms"),
        ])
        #expect(
            events == [
                .missed(count: 3), .missed(count: 4), .warning("write failed: the port took 0 of 6 bytes in 2000 ms"),
            ])
        #expect(state.counts.missed == 7)
        #expect(state.alerts.map(\.kind) == [.warning])
    }

    @Test func connectionRecordsNameThePort() {
        let (events, _) = records([
            .connected(port: "sim:env (/dev/pts/3)", settings: "115200 8N1"), .disconnected(reason: "device hung up"),
            .reconnecting,
            .reconnected(port: "/dev/ttyUSB0", settings: "115200 8N1", attempts: 2, downtime: .milliseconds(1500)),
        ])
        #expect(
            events == [
                .connected(port: "sim:env (/dev/pts/3)", settings: "115200 8N1"),
                .disconnected(port: "/dev/ttyUSB0", reason: "device hung up"), .reconnecting(port: "/dev/ttyUSB0"),
                .reconnected(port: "/dev/ttyUSB0", settings: "115200 8N1", attempts: 2, downtime: .milliseconds(1500)),
            ])
    }

    /// `reconnecting` without a disconnect first (it cannot happen in order) leaves
    /// the connection as it was.
    @Test func reconnectingWhileConnectedKeepsTheConnection() {
        let (_, state) = records([.connected(port: "p", settings: "9600 8N1"), .reconnecting])
        #expect(state.connection == .connected(since: time))
    }
}
