import Foundation
import Testing
import TetherModel
import TetherSimulator

/// The simulator may not import the Model, so it keeps its own list of the dialects a
/// profile may name: each must be one of tether's (``DialectRegistry/builtIn``), or
/// `tether --sim` could not talk to the device.
@Test(arguments: DeviceProfile.dialects)
func aDialectAProfileMayNameIsOneTetherKnows(name: String) {
    #expect(DialectRegistry.builtIn[name] != nil)
}

@Test(arguments: SimulatorProfiles.builtInNames)
func eachBuiltInProfileGivesOptionsItsDialectTakes(name: String) throws {
    let profile = try SimulatorProfiles.profile(named: name)
    let kind = try #require(DialectRegistry.builtIn[profile.dialect])
    let options = profile.tetherOptions()
    #expect(!options.contains("--error-pattern") || kind.takes.contains(.errorPattern))
    #expect(!options.contains("--prompt") || kind.takes.contains(.prompt))
}

/// A `line` or `scpi` device that speaks unasked with no notification pattern (a
/// thermometer printing `T=21.4C`) needs `--listen`: the simulator prints it; a pattern
/// names the notifications instead.
@Test func aDeviceSpeakingUnaskedUnnamedIsGivenTheListen() throws {
    func profile(_ pattern: String) throws -> DeviceProfile {
        let text = """
            {"name": "thermometer", "dialect": "line", \(pattern)
             "properties": [{"name": "t", "type": "number", "initial": 21.4, "format": "%.1f"}],
             "commands": [], "notifications": [{"name": "reading", "every": 40, "send": "T={t}C"}]}
            """
        return try DeviceProfile(data: Array(text.utf8), file: "thermometer.json", defaultName: "thermometer")
    }
    #expect(try profile("").tetherCommandLine() == "--dialect line --listen 150")
    let named = try profile(#""notificationPattern": "^T=","#)
    #expect(named.tetherCommandLine() == "--dialect line --notify-pattern '^T='")
}
