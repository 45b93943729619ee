import Foundation
import Testing

@testable import TetherModel
@testable import TetherPresenter

/// The Presenter's view state, event by event: readings and their statistics, the
/// connection, identity and alerts (the state both live views render).
@Suite struct PresenterStateTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

    private func notification(_ text: String, at seconds: Double = 0) -> DeviceEvent {
        DeviceEvent(time: at(seconds), kind: .session(.notification(Line(text))))
    }

    private func reply(_ command: String, _ lines: [String], isError: Bool = false) -> DeviceEvent {
        DeviceEvent(
            time: at(1),
            kind: .session(
                .replied(
                    RequestID(value: 1), command: command, reply: Reply(lines: lines.map(Line.init), isError: isError),
                    roundTrip: .milliseconds(4))))
    }

    private func presenter(
        _ events: [DeviceEvent], facts: DeviceFacts = DeviceFacts()
    ) -> Presenter {
        var presenter = Presenter(port: "/dev/ttyUSB0", facts: facts)
        for event in events { _ = presenter.handle(event) }
        return presenter
    }

    /// `monitor --live` grew with the number of distinct reading names (20 000 names:
    /// 3 MB per `state` record): the first 64 names are tracked, the values of later
    /// names are counted, and the known names go on updating.
    @Test func readingNamesAreBoundedAndTheRestCounted() throws {
        let events = (0..<20_000).map { notification("!N k\($0)=1 temp=\($0)", at: Double($0)) }
        let state = presenter(events).state
        #expect(state.readings.count == ViewState.maximumReadingNames)
        #expect(state.readings.map(\.latest.name) == ["k0", "temp"] + (1..<63).map { "k\($0)" })
        #expect(state.counts.untrackedReadings == 20_000 - 63)
        #expect(state.reading(named: "temp")?.latest.value == "19999")
        #expect(state.counts.notifications == 20_000)
    }

    @Test func notificationsFillReadingsInTheOrderFirstSeen() throws {
        let state = presenter([notification("!READING temp=22.87 hum=41.3", at: 2)]).state
        #expect(state.readings.map(\.latest.name) == ["temp", "hum"])
        let temp = try #require(state.reading(named: "temp"))
        #expect(temp.latest.value == "22.87")
        #expect(temp.latest.number == 22.87)
        #expect(temp.latest.time == at(2))
        #expect(state.counts.notifications == 1)
    }

    @Test(
        arguments: [
            ("n=12", 12.0, nil), ("n=-3", -3.0, nil), ("n=+7", 7.0, nil), ("n=0.5", 0.5, nil), ("n=.5", 0.5, nil),
            ("n=-0.25", -0.25, nil), ("n=1.5e3", 1500.0, nil), ("n=-2.5E-3", -0.0025, nil), ("n=6e+2", 600.0, nil),
            ("n=5.00V", 5.0, "V"), ("n=-12.5°C", -12.5, "°C"), ("n=41.3%RH", 41.3, "%RH"), ("n=1.2e-3Pa", 0.0012, "Pa"),
            ("n=3eV", 3.0, "eV"), ("n=250mA", 250.0, "mA"),
        ] as [(String, Double, String?)])
    func numbersInEveryFormWithTheirUnits(field: String, number: Double, unit: String?) throws {
        let reading = try #require(presenter([notification("!S " + field)]).state.reading(named: "n"))
        #expect(reading.latest.number == number)
        #expect(reading.latest.unit == unit)
        #expect(reading.latest.value == String(field.dropFirst(2)))
    }

    @Test(arguments: ["0x1F", "12:30", "1.2.3", "inf", "nan", "-", "e5", "OK", "1e999"])
    func valuesThatAreNotNumbersKeepTheirText(value: String) throws {
        let reading = try #require(presenter([notification("!S n=\(value)")]).state.reading(named: "n"))
        #expect(reading.latest.number == nil)
        #expect(reading.latest.value == value)
        #expect(reading.count == 0 && reading.history.isEmpty && reading.mean == nil)
    }

    @Test func theDescriptionGivesUnitsTheValueDoesNotCarry() throws {
        let facts = DeviceFacts(units: ["temp": "°C", "v": "mV"])
        let state = presenter([notification("!R temp=21.5 v=3.3V hum=40")], facts: facts).state
        #expect(state.reading(named: "temp")?.latest.unit == "°C")
        #expect(state.reading(named: "v")?.latest.unit == "V")
        #expect(state.reading(named: "hum")?.latest.unit == nil)
    }

    @Test func minimumMaximumMeanAndHistory() throws {
        let values = ["20", "22.5", "-1", "x", "30.5"]
        let events = values.enumerated().map { notification("!R t=\($1)", at: Double($0)) }
        let series = try #require(presenter(events).state.reading(named: "t"))
        #expect(series.minimum == -1)
        #expect(series.maximum == 30.5)
        #expect(series.mean == 18)
        #expect(series.count == 4)
        #expect(series.history == [20, 22.5, -1, 30.5])
        #expect(series.latest.value == "30.5")
        #expect(series.latest.time == at(4))
    }

    @Test func historyKeepsTheMostRecentValues() throws {
        let count = ReadingSeries.maximumHistory + 5
        let events = (0..<count).map { notification("!R t=\($0)") }
        let series = try #require(presenter(events).state.reading(named: "t"))
        #expect(series.history == (5..<count).map(Double.init))
        #expect(series.count == count)
        #expect(series.minimum == 0)
    }

    @Test func disconnectAndReconnectMoveTheConnection() {
        var presenter = Presenter(port: "/dev/ttyUSB0")
        #expect(presenter.state.connection == .connecting)
        #expect(presenter.state.settings == nil)
        _ = presenter.handle(DeviceEvent(time: at(0), kind: .connected(port: "/dev/ttyUSB0", settings: "9600 8N1")))
        #expect(presenter.state.connection == .connected(since: at(0)))
        #expect(presenter.state.settings == "9600 8N1")
        _ = presenter.handle(DeviceEvent(time: at(5), kind: .disconnected(reason: "device hung up")))
        #expect(presenter.state.connection == .disconnected(reason: "device hung up", since: at(5)))
        _ = presenter.handle(DeviceEvent(time: at(5.1), kind: .reconnecting))
        #expect(presenter.state.connection == .reconnecting(reason: "device hung up", since: at(5)))
        #expect(presenter.state.settings == "9600 8N1")
        _ = presenter.handle(
            DeviceEvent(
                time: at(8),
                kind: .reconnected(port: "/dev/ttyUSB0", settings: "9600 8N1", attempts: 3, downtime: .seconds(3))))
        #expect(presenter.state.connection == .connected(since: at(8)))
        #expect(presenter.state.counts.reconnects == 1)
        _ = presenter.handle(DeviceEvent(time: at(9), kind: .disconnected(reason: "unplugged")))
        #expect(presenter.state.connection == .disconnected(reason: "unplugged", since: at(9)))
    }

    @Test func aSettingMismatchIsAWarningRecordAndAlert() {
        var presenter = Presenter(port: "/dev/ttyUSB0")
        let records = presenter.handle(
            DeviceEvent(
                time: at(1), kind: .settingMismatch(setting: "baud rate", requested: "250000", actual: "230400")))
        let warning = SettingWarning(port: "/dev/ttyUSB0", setting: "baud rate", requested: "250000", actual: "230400")
        #expect(records == [ViewRecord(time: at(1), event: .settingNotApplied(warning))])
        #expect(
            presenter.state.alerts == [
                Alert(
                    time: at(1), kind: .warning,
                    line: ViewLine("/dev/ttyUSB0: baud rate 250000 was asked for, the port has 230400"))
            ])
    }

    @Test func identityFromTheProfileUntilTheDeviceAnswersIDN() throws {
        let facts = DeviceFacts(identity: "TETHER,ENV-1,SIM0001,1.0")
        let before = presenter([], facts: facts).state
        #expect(before.identity == DeviceIdentity(parsing: "TETHER,ENV-1,SIM0001,1.0", source: .description))
        #expect(before.identity?.model == "ENV-1")
        let after = presenter([reply("*idn?", ["ACME,PSU-30,12345,2.4.1"])], facts: facts).state
        let identity = try #require(after.identity)
        #expect(identity.source == .reply)
        #expect(identity.manufacturer == "ACME")
        #expect(identity.serialNumber == "12345")
        #expect(identity.firmware == "2.4.1")
    }

    @Test func noIdentityWithoutProfileOrIDN() {
        #expect(presenter([reply("TEMP?", ["22.5"])]).state.identity == nil)
        #expect(presenter([reply("*IDN?", ["ERR -113"], isError: true)]).state.identity == nil)
    }

    @Test func alarmsErrorRepliesAndWarningsBecomeAlerts() {
        let state = presenter([
            notification("!READING temp=22.87 hum=41.3"),
            notification("!ALARM temp_high temp=31.02 limit=30.0", at: 3),
            reply("SETP 99", ["ERR -222,\"Data out of range\""], isError: true),
            DeviceEvent(time: at(4), kind: .error("write failed: EIO")),
        ]).state
        #expect(
            state.alerts == [
                Alert(time: at(3), kind: .alarm, line: ViewLine("!ALARM temp_high temp=31.02 limit=30.0")),
                Alert(
                    time: at(1), kind: .errorReply, line: ViewLine("ERR -222,\"Data out of range\""), command: "SETP 99"
                ),
                Alert(time: at(4), kind: .warning, line: ViewLine("write failed: EIO")),
            ])
        #expect(state.reading(named: "temp")?.latest.value == "31.02")
        #expect(state.counts.errorReplies == 1)
    }

    @Test func alertsKeepTheMostRecent() {
        let events = (0..<(ViewState.maximumAlerts + 3)).map { notification("+FAULT \($0)") }
        let alerts = presenter(events).state.alerts
        #expect(alerts.count == ViewState.maximumAlerts)
        #expect(alerts.first?.line == ViewLine("+FAULT 3"))
    }

    @Test(arguments: [
        ("!ALARM temp_high", true), ("alarm: door open", true), ("+WARNING low battery", true), ("ERROR 5", true),
        ("!READING temp=1", false), ("RING", false), ("+CMTI: \"SM\",3", false),
    ])
    func whichNotificationsAreAlarms(text: String, isAlarm: Bool) {
        #expect(Alert.isAlarm(text) == isAlarm)
        #expect(Alert.isAlarm(bytes: Array(text.utf8)) == isAlarm)
    }

    /// The byte-by-byte reading of a line agrees with the text one, also where a
    /// non-ASCII letter, digit or combining mark is part of the first word.
    @Test(arguments: [
        "", "   ", "ALARM", "alarms!", "12 ALARM", "--err", "WARN\u{301}", "ALARM\u{301}", "ÉRR", "ERR\u{301}OR",
        "ERRÉ", "é ALARM", "٣ ALARM", "FAULTY", "FAUL", "\u{FF}ALERT", "AL\u{0}ARM", "Err42",
    ])
    func alarmsReadFromBytesAsFromText(text: String) {
        #expect(Alert.isAlarm(bytes: Array(text.utf8)) == Alert.isAlarm(text), "\(text)")
    }
}
