import Foundation
import Testing

@testable import TetherSimulator

/// The built-in `env` profile (the ENV-1 controller of Simulator/README.md), driven
/// directly (no pty), at chosen instants.
@Suite struct EnvProfileTests {
    let start = ContinuousClock.now
    let controller: ProfileDevice

    init() throws {
        controller = try SimulatorProfiles.device(named: "env")
        _ = controller.clientDidConnect(at: start)
    }

    /// Sends `text` at `start + offset` and returns what the controller writes.
    func exchange(_ text: String, at offset: Duration = .zero) -> String {
        let outputs = controller.receive(Array(text.utf8), at: start + offset)
        #expect(outputs.allSatisfy { $0.delay == .zero })
        return outputs.map { output in
            guard case .send(let bytes) = output.action else { return "<hang-up>" }
            return String(decoding: bytes, as: UTF8.self)
        }.joined()
    }

    /// The notifications due at `start + offset`.
    func wakeUp(at offset: Duration) -> String {
        controller.wakeUp(at: start + offset).map { output in
            guard case .send(let bytes) = output.action else { return "<hang-up>" }
            return String(decoding: bytes, as: UTF8.self)
        }.joined()
    }

    @Test(arguments: ["\r", "\n", "\r\n"])
    func identifiesItselfWhateverTheTerminator(terminator: String) {
        #expect(exchange("*IDN?" + terminator) == "TETHER,ENV-1,SIM0001,1.0\r\n")
    }

    @Test func answersEveryLineOfOneRead() {
        #expect(exchange("SETP?\r\n\r\nRATE?\nALARM?\r") == "22.0\r\n1000\r\n30.0\r\n")
    }

    @Test func ignoresEmptyLinesAndPartialLines() {
        #expect(exchange("\r\n\n\r") == "")
        #expect(exchange("*ID") == "")
        #expect(exchange("N?\n") == "TETHER,ENV-1,SIM0001,1.0\r\n")
    }

    @Test func reportsTemperatureAndHumidityWithTheirDecimals() throws {
        let temperature = exchange("TEMP?\n")
        let humidity = exchange("HUM?\n")
        #expect(temperature.wholeMatch(of: #/2[01]\.\d\d\r\n/#) != nil, "\(temperature)")
        #expect(humidity.wholeMatch(of: #/4\d\.\d\r\n/#) != nil, "\(humidity)")
    }

    @Test func temperatureDriftsToTheSetpoint() throws {
        let initial = try #require(Double(exchange("TEMP?\n").dropLast(2)))
        #expect(abs(initial - 21.5) < 0.1)
        #expect(exchange("SETP 30\n") == "OK\r\n")
        let later = try #require(Double(exchange("TEMP?\n", at: .seconds(600)).dropLast(2)))
        #expect(abs(later - 30) < 0.2)
    }

    @Test(arguments: ["5", "5.0", "22.5", "35", "3.5e1"])
    func acceptsSetpointsInRange(value: String) throws {
        #expect(exchange("SETP \(value)\n") == "OK\r\n")
        let expected = String(format: "%.1f", try #require(Double(value)))
        #expect(exchange("SETP?\n") == expected + "\r\n")
    }

    @Test(arguments: ["4.99", "35.01", "-10", "1e9"])
    func rejectsSetpointsOutOfRange(value: String) {
        #expect(exchange("SETP \(value)\n") == "ERR -222,\"Data out of range\"\r\n")
        #expect(exchange("SETP?\n") == "22.0\r\n")
    }

    @Test(arguments: ["abc", "nan", "inf", "22,5", "1 2"])
    func rejectsSetpointsThatAreNotNumbers(value: String) {
        #expect(exchange("SETP \(value)\n") == "ERR -104,\"Data type error\"\r\n")
    }

    @Test(arguments: [0, 50, 1000, 60000])
    func acceptsRatesInRange(value: Int) {
        #expect(exchange("RATE \(value)\n") == "OK\r\n")
        #expect(exchange("RATE?\n") == "\(value)\r\n")
    }

    @Test(arguments: ["49", "60001", "-1", "1"])
    func rejectsRatesOutOfRange(value: String) {
        #expect(exchange("RATE \(value)\n") == "ERR -222,\"Data out of range\"\r\n")
        #expect(exchange("RATE?\n") == "1000\r\n")
    }

    @Test func rejectsRatesThatAreNotWholeNumbers() {
        #expect(exchange("RATE 1.5\n") == "ERR -104,\"Data type error\"\r\n")
        #expect(exchange("RATE fast\n") == "ERR -104,\"Data type error\"\r\n")
    }

    @Test func setsTheAlarmLimitWithinItsRange() {
        #expect(exchange("ALARM -40\n") == "OK\r\n")
        #expect(exchange("ALARM?\n") == "-40.0\r\n")
        #expect(exchange("ALARM 125\n") == "OK\r\n")
        #expect(exchange("ALARM 125.5\n") == "ERR -222,\"Data out of range\"\r\n")
        #expect(exchange("ALARM hot\n") == "ERR -104,\"Data type error\"\r\n")
        #expect(exchange("ALARM?\n") == "125.0\r\n")
    }

    @Test(arguments: [
        ("FOO\n", "ERR -113,\"Undefined header\""),
        ("*IDN\n", "ERR -113,\"Undefined header\""),
        ("*IDN? 1\n", "ERR -108,\"Parameter not allowed\""),
        ("ALARM:TEST now\n", "ERR -108,\"Parameter not allowed\""),
        ("SETP\n", "ERR -109,\"Missing parameter\""),
        ("RATE   \n", "ERR -109,\"Missing parameter\""),
    ])
    func reportsCommandErrors(line: String, reply: String) {
        #expect(exchange(line) == reply + "\r\n")
    }

    @Test func acceptsHeadersInAnyCase() {
        #expect(exchange("*idn?\n") == "TETHER,ENV-1,SIM0001,1.0\r\n")
        #expect(exchange("  setp 25 \n") == "OK\r\n")
    }

    @Test func dropsOverlongLinesWithOneError() {
        let flood = String(repeating: "A", count: 3000)
        #expect(exchange(flood) == "ERR -363,\"Input buffer overrun\"\r\n")
        #expect(exchange(flood + "\n*IDN?\n") == "TETHER,ENV-1,SIM0001,1.0\r\n")
    }

    @Test func sendsAReadingEveryRateMilliseconds() {
        #expect(controller.nextWakeUp == start + .milliseconds(1000))
        let reading = wakeUp(at: .milliseconds(1000))
        #expect(
            reading.wholeMatch(of: #/!READING temp=2\d\.\d\d hum=\d\d\.\d\r\n/#) != nil,
            "\(reading)")
        #expect(controller.nextWakeUp == start + .milliseconds(2000))

        #expect(exchange("RATE 200\n", at: .milliseconds(1500)) == "OK\r\n")
        #expect(controller.nextWakeUp == start + .milliseconds(1700))
        #expect(exchange("RATE 0\n", at: .milliseconds(1600)) == "OK\r\n")
        #expect(controller.nextWakeUp == nil)
    }

    @Test func catchesUpWithoutABurstWhenWokenLate() {
        _ = wakeUp(at: .seconds(10))
        #expect(controller.nextWakeUp == start + .seconds(11))
    }

    @Test func readsOnlyWhileAClientIsConnected() throws {
        let fresh = try SimulatorProfiles.device(named: "env")
        #expect(fresh.nextWakeUp == nil)
        _ = fresh.clientDidConnect(at: start)
        #expect(fresh.nextWakeUp != nil)
        fresh.clientDidDisconnect(at: start)
        #expect(fresh.nextWakeUp == nil)
    }

    @Test func raisesTheTemperatureAlarmOnceEachTimeTheLimitIsReached() {
        #expect(exchange("ALARM 0\n") == "OK\r\n")
        let first = wakeUp(at: .seconds(1))
        #expect(
            first.wholeMatch(
                of: #/!READING temp=(\S+) hum=\S+\r\n!ALARM temp_high temp=\1 limit=0\.0\r\n/#)
                != nil, "\(first)")
        #expect(!wakeUp(at: .seconds(2)).contains("!ALARM"))

        #expect(exchange("ALARM 30\n", at: .milliseconds(2500)) == "OK\r\n")
        #expect(!wakeUp(at: .seconds(3)).contains("!ALARM"))
        #expect(exchange("ALARM 0\n", at: .milliseconds(3500)) == "OK\r\n")
        #expect(wakeUp(at: .seconds(4)).contains("!ALARM temp_high"))
    }

    @Test func alarmTestAnswersOKThenAnAlarmNotification() {
        let reply = exchange("ALARM:TEST\n")
        #expect(
            reply.wholeMatch(of: #/OK\r\n!ALARM test temp=2\d\.\d\d limit=30\.0\r\n/#) != nil,
            "\(reply)")
    }

    @Test func equalSeedsGiveEqualReadings() throws {
        func readings(seed: UInt64) throws -> [String] {
            let device = try SimulatorProfiles.device(named: "env", seed: seed)
            _ = device.clientDidConnect(at: start)
            return (1...5).map { second in
                device.wakeUp(at: start + .seconds(second)).map { "\($0)" }.joined()
            }
        }
        #expect(try readings(seed: 7) == readings(seed: 7))
        #expect(try readings(seed: 7) != readings(seed: 8))
    }
}
