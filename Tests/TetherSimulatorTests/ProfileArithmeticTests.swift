import Foundation
import Testing

@testable import TetherSimulator

/// Profile arithmetic and formatting never trap: a value a format cannot show is refused
/// with the profile's out-of-range error (set by a command) or a profile error (initial),
/// and counters and intervals at the edge of `Int` stay in range.
@Suite struct ProfileArithmeticTests {
    private static func device(_ document: String) throws -> ProfileDevice {
        let profile = try DeviceProfile(data: Array(document.utf8), file: "edge.json", defaultName: "edge")
        let device = ProfileDevice(profile: profile)
        _ = device.clientDidConnect(at: .now)
        return device
    }

    private static func reply(_ device: ProfileDevice, _ line: String) -> String {
        device.receive(Array((line + "\n").utf8), at: .now).map { output in
            guard case .send(let bytes) = output.action else { return "<hang-up>" }
            return String(decoding: bytes, as: UTF8.self)
        }.joined()
    }

    static let wholeVolts = #"""
        {"dialect": "line",
         "properties": [{"name": "v", "type": "number", "format": "%d", "initial": 1}],
         "commands": [{"regex": "^V (.*)$", "set": {"v": "{1}"}, "reply": "OK"},
                      {"match": "V?", "reply": "{v}"}, {"match": "E?", "reply": "{v:%.3e}"}]}
        """#

    @Test(arguments: ["1e300", "-1e300", "9.3e18", "1e19"])
    func aNumberTooLargeForPercentDIsOutOfRange(value: String) throws {
        let device = try Self.device(Self.wholeVolts)
        #expect(Self.reply(device, "V \(value)") == "-222,\"Data out of range\"\r\n")
        #expect(Self.reply(device, "V?") == "1\r\n")
    }

    @Test func theLargestWholeNumberPercentDHoldsIsShown() throws {
        let device = try Self.device(Self.wholeVolts)
        #expect(Self.reply(device, "V 9.2e18") == "OK\r\n")
        #expect(Self.reply(device, "V?") == "9200000000000000000\r\n")
        #expect(Self.reply(device, "E?") == "9.200e+18\r\n")
    }

    @Test func anInitialValueTooLargeForPercentDIsAProfileError() {
        let document = #"""
            {"dialect": "line", "properties": [{"name": "v", "type": "number", "format": "%d", "initial": 1e300}],
             "commands": []}
            """#
        #expect {
            try Self.device(document)
        } throws: { error in
            let error = error as? ProfileError
            return error?.field == "properties[0].initial"
                && error?.message.contains("cannot be shown with '%d'") == true
        }
    }

    @Test func aTemplatesOwnPercentDShowsAnyNumberWithoutTrapping() {
        #expect(PropertyValue.format(1e300, "%d").hasPrefix("1000000000000000052504760255204420248704468581108159154"))
        #expect(PropertyValue.format(.infinity, "%d") == "inf")
        #expect(PropertyValue.format(-.infinity, "%5d") == "-inf")
        #expect(PropertyValue.format(.nan, "%d") == "nan")
        #expect(PropertyValue.format(Int.max, "%d") == "9223372036854775807")
        #expect(PropertyValue.format(Int.min, "%+d") == "-9223372036854775808")
    }

    @Test func anIntPropertyAtTheEdgeOfIntIsShownExactly() throws {
        let device = try Self.device(
            #"""
            {"dialect": "line", "properties": [{"name": "n", "type": "int", "initial": 1}],
             "commands": [{"regex": "^N (.*)$", "set": {"n": "{1}"}, "reply": "OK"},
                          {"match": "N?", "reply": "{n}"}, {"match": "F?", "reply": "{n:%.0f}"}]}
            """#)
        #expect(Self.reply(device, "N 9223372036854775807") == "OK\r\n")
        #expect(Self.reply(device, "N?") == "9223372036854775807\r\n")
        #expect(Self.reply(device, "F?") == "9223372036854775808\r\n")
    }

    @Test func aCounterAtIntMaxWrapsToItsMinimum() throws {
        let profile = try DeviceProfile(
            data: Array(
                #"""
                {"dialect": "line", "properties": [{"name": "n", "type": "int", "initial": 1}],
                 "commands": [{"regex": "^N (.*)$", "set": {"n": "{1}"}, "reply": "OK"}],
                 "notifications": [{"every": 10, "increment": "n", "send": "!N {n}"}]}
                """#.utf8), file: "edge.json", defaultName: "edge")
        let device = ProfileDevice(profile: profile)
        let start = ContinuousClock.now
        _ = device.clientDidConnect(at: start)
        #expect(device.receive(Array("N 9223372036854775807\n".utf8), at: start) == [.send("OK\r\n")])
        #expect(device.wakeUp(at: start + .milliseconds(10)) == [.send("!N 0\r\n")])
        #expect(device.wakeUp(at: start + .milliseconds(20)) == [.send("!N 1\r\n")])
    }

    @Test func anIntervalPropertyBeyondIntWaitsInsteadOfTrapping() throws {
        let device = try Self.device(
            #"""
            {"dialect": "line", "properties": [{"name": "rate", "type": "int", "initial": 1000}],
             "commands": [{"regex": "^RATE (.*)$", "set": {"rate": "{1}"}, "reply": "OK"}],
             "notifications": [{"every": "rate", "send": "!TICK"}]}
            """#)
        #expect(Self.reply(device, "RATE 9223372036854775807") == "OK\r\n")
        #expect(device.nextWakeUp != nil)
        #expect(device.wakeUp(at: .now + .seconds(1)) == [])
    }
}
