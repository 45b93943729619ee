import Foundation
import Testing
import TetherCommandLine
import TetherDeviceSettings
import TetherModel
import TetherSimulator

/// A simulator profile's `promptPattern` is the default of `--prompt-regex` with
/// `--sim`; a prompt given on the command line, exact or a pattern, replaces it.
@Suite struct PromptProfileTests {
    static let spec = CommandSpec(program: "test", abstract: "prompt settings", options: DeviceSettings.options)
    static let profile = try! DeviceProfile(
        data: Array(
            #"{"dialect": "prompt", "prompt": "root@box:~# ", "promptPattern": "^root@box:[^#]*# $", "commands": []}"#
                .utf8), file: "shell.json", defaultName: "shell")

    static func dialect(_ arguments: [String]) throws -> PromptDialect {
        let settings = DeviceSettings(try ParsedArguments(arguments, spec: spec))
        return try #require(try settings.dialect.makeDialect(defaults: profile) as? PromptDialect)
    }

    @Test func theProfilesPatternIsTheDefault() throws {
        #expect(try Self.dialect([]).promptPattern?.source == "^root@box:[^#]*# $")
        #expect(Self.profile.tetherOptions() == ["--dialect", "prompt", "--prompt-regex", "^root@box:[^#]*# $"])
    }

    @Test func aPromptGivenReplacesIt() throws {
        let exact = try Self.dialect(["--prompt", "# "])
        #expect(exact.promptPattern == nil && exact.prompt == "# ")
        #expect(try Self.dialect(["--prompt-regex", "[#$] $"]).promptPattern?.source == "[#$] $")
    }
}
