import Foundation
import Testing

@testable import TetherPresenter

/// ``SessionReport``: a log's records gathered per device.
@Suite struct SessionReportTests {
    private func record(
        _ type: String, _ fields: [String: JSONValue] = [:], at time: String = "2026-12-01T12:00:00.250Z"
    )
        -> [String: JSONValue]
    {
        var record = fields
        record["type"] = .string(type)
        record["time"] = .string(time)
        record["v"] = .int(1)
        return record
    }

    @Test func readingsRoundTripsAndEventsGoToTheirDevice() {
        var report = SessionReport()
        report.add(
            record(
                "notification", ["port": "/dev/ttyUSB0", "readings": .object(["temp": .double(21.5), "v": "5.00V"])]))
        report.add(
            record("reply", ["port": "/dev/ttyUSB0", "command": "*IDN?", "error": .bool(false), "rtt_ms": .int(4)]))
        report.add(
            record(
                "timeout", ["port": "/dev/ttyUSB0", "device": "psu", "command": "VOLT?"], at: "2026-12-01T12:00:01Z"))
        report.add(["type": "reply"])
        report.skip()
        #expect(report.devices.map(\.name) == ["/dev/ttyUSB0", "psu"])
        let first = report.devices[0]
        #expect(first.readings.map(\.name) == ["temp"], "a value with a unit is not a number to plot")
        #expect(first.readings.first?.samples.map(\.value) == [21.5])
        #expect(first.roundTrips.map(\.value) == [4])
        #expect(first.count(.exchange) == 1)
        #expect(report.devices[1].count(.timeout) == 1)
        #expect(report.records == 3)
        #expect(report.skipped == 2, "a record without a time, and a line that was not JSON")
        #expect(report.end.map { $0.timeIntervalSince(report.start!) } == 0.75)
    }
}
