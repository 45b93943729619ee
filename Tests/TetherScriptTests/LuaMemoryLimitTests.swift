import Testing
import TetherPresenter
import TetherScript
import TetherSimulator

/// A Lua script's memory is bounded: past the limit the run ends with a script error
/// naming the line that asked for more, and the limit can be raised.
@Suite struct LuaMemoryLimitTests {
    /// Grows a table of 1 KiB strings without end (the probe's script took 2.9 GB).
    static let greedy = """
        device.query('*IDN?')
        local hoard = {}
        for i = 1, math.huge do
          hoard[i] = string.rep("x", 1024) .. i
        end
        """

    @Test func aScriptPastTheLimitFailsNamingItsLine() async throws {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let summary = try await harness.run(Self.greedy, luaMemoryLimit: 8 << 20)
        #expect(summary.outcome == .scriptError)
        let problem = try #require(harness.view.problems.first)
        #expect(problem.location == SourceLocation(file: "test.lua", line: 4))
        #expect(problem.message == "test.lua:4: out of memory: the script needs more than its limit of 8 MiB")
    }

    @Test func aScriptThatCatchesTheErrorKeepsRunningWithinTheLimit() async throws {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let script = """
            local ok, problem = pcall(function()
              local hoard = {}
              for i = 1, math.huge do hoard[i] = string.rep("y", 4096) .. i end
            end)
            collectgarbage()
            check(not ok and problem == "not enough memory", "refused")
            check(device.query('*IDN?')[1]:match('^TETHER'), "still talks")
            """
        let summary = try await harness.run(script, luaMemoryLimit: 8 << 20)
        #expect(summary.outcome == .passed)
        #expect(summary.passed == 2)
    }

    @Test func aScriptWithinARaisedLimitRuns() async throws {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let script = """
            local hoard = {}
            for i = 1, 16 * 1024 do hoard[i] = string.rep("z", 1024) .. i end
            check(#hoard == 16384, "16 MiB held")
            """
        let summary = try await harness.run(script, luaMemoryLimit: 64 << 20)
        #expect(summary.outcome == .passed)
    }
}
