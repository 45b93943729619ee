import Foundation
import Testing
import TetherCommandLine
import TetherDeviceSettings

/// Device description files (docs/DIALECTS.md, "Device description files"): strict JSON
/// read into a layer of settings, each mistake naming the file, the key and what was
/// expected.
@Suite struct DeviceDescriptionTests {
    static func parse(_ text: String) throws(UsageError) -> SettingsLayer {
        try DeviceDescription.parse(Array(text.utf8), file: "dev.json")
    }

    @Test func keysAreTheDeviceOptionsAndValuesTheirTexts() throws {
        let layer = try Self.parse(
            #"{"description": "bench modem", "dialect": "at", "baud": 9600, "urc": ["^A", 5], "check-errors": false}"#)
        #expect(layer.values == ["--dialect": ["at"], "--baud": ["9600"], "--urc": ["^A", "5"]])
        #expect(layer.flags == ["--check-errors": false])
    }

    @Test func anEmptyObjectIsAnEmptyLayer() throws {
        #expect(try Self.parse("{}") == SettingsLayer())
    }

    @Test(arguments: [
        (
            #"{"dialect": "at", "baud": 9600,}"#,
            "dev.json: line 1, column 31: not valid JSON: a comma must be followed by another value (remove the trailing comma)"
        ),
        (#"{"baud": 9600, "baud": 300}"#, #"dev.json: line 1, column 16: "baud" is given twice in the same object"#),
        (#"{"dialekt": "at"}"#, "dev.json: dialekt: unknown setting; did you mean 'dialect'?"),
        (
            #"{"baud": "fast"}"#,
            "dev.json: baud: The value 'fast' is invalid for '--baud <rate>': must be a whole number, 1 to 2147483647 baud"
        ),
        (#"{"urc": ["^A", {"x": 1}]}"#, "dev.json: urc[1]: expected a string, got an object"),
        (#"{"urc": ["^A", true]}"#, "dev.json: urc[1]: expected a string, got a boolean"),
        (#"{"urc": null}"#, "dev.json: urc: expected a string, a number, true/false or a list, got null"),
        (#"{"description": 5}"#, "dev.json: description: expected a string, got a number"),
        (#"{"check-errors": "yes"}"#, "dev.json: check-errors: expected true or false"),
        (#"{"baud": [1, 2]}"#, "dev.json: baud: expected one value, got 2"),
        (#"["at"]"#, #"dev.json: expected an object of settings, e.g. {"dialect": "at"}, got a list"#),
        ("3", #"dev.json: expected an object of settings, e.g. {"dialect": "at"}, got a number"#),
    ])
    func mistakesAreNamed(text: String, message: String) {
        #expect {
            try Self.parse(text)
        } throws: { error in
            (error as? UsageError)?.message.hasPrefix(message) == true
        }
    }

    @Test func aMissingFileOrAFolderIsNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-devfile-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: UsageError("The device description '\(folder)' is a directory, not a file")) {
            try DeviceDescription.load(folder)
        }
        #expect(throws: UsageError("The device description '\(folder)/none.json' does not exist")) {
            try DeviceDescription.load(folder + "/none.json")
        }
        let file = folder + "/dev.json"
        try #"{"parity": "even"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try DeviceDescription.load(file).values == ["--parity": ["even"]])
    }
}
