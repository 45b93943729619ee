import Foundation
import Testing
import TetherCommandLine
import TetherDeviceSettings
import TetherModel

/// The prompt dialect's settings: `--prompt-regex`, `--prompt-wait` and `--no-echo`, and
/// their device description keys.
@Suite struct PromptSettingsTests {
    static let spec = CommandSpec(program: "test", abstract: "prompt settings", options: DeviceSettings.options)

    static func dialect(_ arguments: [String], file: SettingsLayer? = nil) throws -> PromptDialect {
        let parsed = try ParsedArguments(arguments, spec: spec)
        let settings = try DeviceSettings(parsed, below: file.map { [$0] } ?? [])
        return try #require(try settings.dialect.makeDialect() as? PromptDialect)
    }

    @Test func theOptionsSetThePatternAndTheWait() throws {
        let dialect = try Self.dialect(["--dialect", "prompt", "--prompt-regex", "[#$] $", "--prompt-wait", "2500"])
        #expect(dialect.promptPattern?.source == "[#$] $")
        #expect(dialect.readinessWait == .milliseconds(2500))
    }

    @Test func theDefaultsAreTheExactPromptAndTenSeconds() throws {
        let dialect = try Self.dialect(["--dialect", "prompt"])
        #expect(dialect.promptPattern == nil && dialect.prompt == "=> ")
        #expect(dialect.readinessWait == .seconds(10))
        #expect(dialect.echoes)
    }

    @Test func noEchoDeclaresAConsoleThatDoesNotEcho() throws {
        #expect(try Self.dialect(["--dialect", "prompt", "--no-echo"]).echoes == false)
        let file = try DeviceDescription.parse(Array(#"{"dialect": "prompt", "no-echo": true}"#.utf8), file: "mcu.json")
        #expect(try Self.dialect([], file: file).echoes == false)
    }

    @Test func aDeviceDescriptionGivesThemByKey() throws {
        let file = try DeviceDescription.parse(
            Array(#"{"dialect": "prompt", "prompt-regex": "^[a-z]+@box:.*# $", "prompt-wait": 500}"#.utf8),
            file: "shell.json")
        let dialect = try Self.dialect([], file: file)
        #expect(dialect.promptPattern?.source == "^[a-z]+@box:.*# $")
        #expect(dialect.readinessWait == .milliseconds(500))
    }
}
