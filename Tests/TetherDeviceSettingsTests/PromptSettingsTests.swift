import Foundation
import Testing
import TetherCommandLine
import TetherDeviceSettings
import TetherModel

/// The prompt dialect's settings: `--prompt-regex` and `--prompt-wait`, and their device
/// description keys.
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
