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
