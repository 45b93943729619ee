import Foundation
import Testing

@testable import TetherSimulator

/// Loading profiles: every built-in loads; each kind of mistake gives a message naming
/// the file, the field and what was expected.
@Suite struct DeviceProfileLoadingTests {
    @Test func everyBuiltInLoadsWithItsDialect() throws {
        let profiles = try SimulatorProfiles.builtIns()
        #expect(profiles.map(\.name) == ["at-modem", "env", "gps", "prompt-console", "scpi-psu"])
        #expect(profiles.map(\.dialect) == ["at", "line", "nmea", "prompt", "scpi"])
        #expect(profiles.allSatisfy { !$0.description.isEmpty })
        #expect(profiles.first { $0.name == "prompt-console" }?.prompt == "=> ")
    }

    /// The built-ins are compiled in by the EmbedProfiles plugin: every file in the
    /// folder, picked up by the next build with no other step.
    @Test func everyFileInTheBuiltInFolderIsCompiledIn() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Simulator/TetherSimulator/Profiles/BuiltIn")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(SimulatorProfiles.builtInNames == files.map { String($0.dropLast(5)) }.sorted())
    }

    /// The units a dashboard shows: a notification field `name={property}` takes the
    /// property's unit; a property without one, or text that is not `name=`, gives none.
    @Test func notificationFieldsTakeTheirPropertysUnit() throws {
        #expect(
            try SimulatorProfiles.profile(named: "env").readingUnits == ["temp": "°C", "hum": "%RH", "limit": "°C"])
        let document = """
            {"dialect": "line", "commands": [], "properties": [
              {"name": "v", "type": "number", "unit": "V", "initial": 1},
              {"name": "n", "type": "int", "initial": 0}],
             "notifications": [{"every": 1000, "send": "!S volts={v:%.3f},count={n} raw {v}"}]}
            """
        let profile = try DeviceProfile(data: Array(document.utf8), file: "units.json", defaultName: "units")
        #expect(profile.readingUnits == ["volts": "V"])
    }

    @Test func anUnknownBuiltInNameListsTheKnownOnes() {
        #expect(throws: ProfileError.self) { try SimulatorProfiles.profile(named: "toaster") }
        do {
            _ = try SimulatorProfiles.profile(named: "toaster")
        } catch {
            #expect(error.description.hasPrefix("toaster: no built-in profile of that name"))
            #expect(error.description.contains("at-modem, env, gps, prompt-console, scpi-psu"))
        }
    }

    @Test func aFileIsLoadedByPathAndNamedAfterIt() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lamp-\(UUID().uuidString).json")
        try Data(#"{"dialect": "line", "commands": [{"match": "ON", "reply": "OK"}]}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let profile = try SimulatorProfiles.profile(named: url.path)
        #expect(profile.name == url.deletingPathExtension().lastPathComponent)
        let device = ProfileDevice(profile: profile)
        #expect(device.receive(Array("on\n".utf8), at: .now) == [.send("-113,\"Undefined header\"\r\n")])
        #expect(device.receive(Array("ON\n".utf8), at: .now) == [.send("OK\r\n")])
    }

    @Test func aMissingFileIsReported() {
        do {
            _ = try SimulatorProfiles.profile(named: "/nonexistent/dev.json")
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.file == "/nonexistent/dev.json")
            #expect(error.message == "no such file")
        }
    }

    static let minimal = #"{"dialect": "line", "commands": [{"match": "X"}]}"#

    /// (document, field, words the message contains)
    static let mistakes: [(String, String, String)] = [
        ("{\n  \"dialect\": \"line\",\n  \"commands\": [x]\n}", "line 3, column 16", "not valid JSON"),
        (#"{"commands": []}"#, "dialect", "missing; expected one of line, at, scpi, prompt"),
        (#"{"dialect": "modbus", "commands": []}"#, "dialect", "unknown dialect 'modbus'; expected one of line, at"),
        (#"{"dialect": 3, "commands": []}"#, "dialect", "expected a string, found a number"),
        (#"{"dialect": "prompt", "commands": []}"#, "prompt", "needs the console's prompt"),
        (#"{"dialect": "line", "comands": []}"#, "comands", "unknown field 'comands'; expected one of"),
        (
            #"{"dialect": "line", "commands": [{"match": "A"}, {"regex": "^(SETP"}]}"#, "commands[1].regex",
            "'^(SETP' does not compile; expected a regular expression"
        ),
        (#"{"dialect": "line", "commands": [{"reply": "x"}]}"#, "commands[0]", "missing 'match'"),
        (
            #"{"dialect": "line", "properties": [{"name": "v", "type": "number", "min": 5, "max": 1, "initial": 3}], "commands": []}"#,
            "properties[0].min", "min 5.0 is greater than max 1.0; expected min ≤ max"
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "v", "type": "number", "min": 0, "max": 1, "initial": 3}], "commands": []}"#,
            "properties[0].initial", "outside min…max"
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "v", "type": "float", "initial": 3}], "commands": []}"#,
            "properties[0].type", "'float' is not a type; expected one of number, int, bool, string, enum"
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "v", "type": "int", "initial": 1.5}], "commands": []}"#,
            "properties[0].initial", "expected a whole number, found a number"
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "v", "type": "int", "initial": 1}], "commands": [{"match": "A"}, {"match": "B"}, {"match": "C"}, {"match": "V?", "reply": "{w}"}]}"#,
            "commands[3].reply", "unknown property 'w' in '{w}'; expected one of: v, identity"
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "V", "reply": "{1}"}]}"#, "commands[0].reply",
            "there are no captures here"
        ),
        (
            #"{"dialect": "line", "commands": [{"regex": "V (.*)", "reply": ["ok", "{2}"]}]}"#,
            "commands[0].reply[1]", "expected a capture from 1 to 1"
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "v", "type": "number", "initial": 1}], "commands": [{"match": "V?", "reply": "{v:%s}"}]}"#,
            "commands[0].reply", "'%s' in '{v:%s}' is not a number format"
        ),
        (
            #"{"dialect": "line", "commands": [{"regex": "V (.*)", "set": {"volts": "{1}"}}]}"#,
            "commands[0].set.volts", "unknown property 'volts'"
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "*CLS", "action": "clearErrors"}]}"#,
            "commands[0].action", "need 'errors.queue'"
        ),
        (
            #"{"dialect": "line", "commands": [{"match": "X", "action": "explode"}]}"#, "commands[0].action",
            "unknown action 'explode'; expected one of: reset, popError, clearErrors"
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "rate", "type": "number", "initial": 1}], "commands": [], "notifications": [{"every": "rate", "send": "x"}]}"#,
            "notifications[0].every", "'rate' is not an int property"
        ),
        (
            #"{"dialect": "line", "commands": [], "notifications": [{"after": "reading", "send": "x"}]}"#,
            "notifications[0].after", "no notification named 'reading'"
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "t", "type": "number", "initial": 1}], "commands": [], "notifications": [{"every": 100, "when": {"property": "t", "above": 3}, "send": "x"}]}"#,
            "notifications[0].when.above", "unknown field 'above'; expected one of: property, atLeast, atMost"
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "on", "type": "bool", "initial": true}], "commands": [{"match": "X", "reply": {"by": "on", "cases": {"1": "yes"}}}]}"#,
            "commands[0].reply", "no case for '0' of 'on'"
        ),
        (
            #"{"dialect": "line", "properties": [{"name": "line", "type": "string", "initial": ""}], "commands": []}"#,
            "properties[0]", "the name 'line' is reserved"
        ),
        (#"{"dialect": "line", "errorPattern": "[", "commands": []}"#, "errorPattern", "does not compile"),
    ]

    @Test(arguments: mistakes)
    func aMistakeNamesTheFileAndTheField(document: String, field: String, words: String) {
        do {
            _ = try DeviceProfile(data: Array(document.utf8), file: "bad.json", defaultName: "bad")
            Issue.record("accepted: \(document)")
        } catch {
            #expect(error.file == "bad.json")
            #expect(error.field == field, "\(error)")
            #expect(error.message.contains(words), "\(error)")
            #expect(error.description.hasPrefix("bad.json: \(field): "))
        }
    }

    @Test func aMinimalProfileLoads() throws {
        let profile = try DeviceProfile(data: Array(Self.minimal.utf8), file: "ok.json", defaultName: "ok")
        #expect(profile.name == "ok")
        #expect(profile.dialect == "line")
    }
}
