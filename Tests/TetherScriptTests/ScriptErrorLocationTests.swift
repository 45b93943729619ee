import Testing
import TetherPresenter
import TetherScript
import TetherSimulator

/// A Lua script that stops on an error says where: `file:line` in the message and the
/// `script_error` record, whatever the script raised.
@Suite struct ScriptErrorLocationTests {
    private func problem(of text: String) async throws -> ScriptProblem? {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let summary = try await harness.run(text)
        #expect(summary.outcome == .scriptError)
        return harness.view.problems.first
    }

    /// `emit()` of a table holding itself 40 times hung, its memory growing outside
    /// `--lua-memory`: it is a script error at the call, and nothing is emitted.
    @Test func emittingATableThatContainsItselfIsAScriptError() async throws {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let summary = try await harness.run(
            """
            local t = {}
            for i = 1, 40 do t[i] = t end
            emit(t)
            """)
        #expect(summary.outcome == .scriptError)
        #expect(
            harness.view.problems
                == [
                    ScriptProblem(
                        location: SourceLocation(file: "test.lua", line: 3),
                        message: "test.lua:3: emit: the table contains itself")
                ])
        #expect(harness.view.emitted.isEmpty)
    }

    /// A cycle through other tables is found too.
    @Test func aCycleThroughNestedTablesIsAScriptError() async throws {
        let found = try await problem(
            of: """
                local a = { name = "a" }
                a.b = { c = { back = a } }
                emit({ a })
                """)
        #expect(found?.message == "test.lua:3: emit: the table contains itself")
    }

    /// Tables shared without a cycle are copied each time they appear, up to 100 000
    /// values: 40 references at each of 16 levels would be 40^16.
    @Test func aValueTooLargeToEmitIsAScriptError() async throws {
        let found = try await problem(
            of: """
                local t = { 1 }
                for _ = 1, 16 do
                  local wider = {}
                  for i = 1, 40 do wider[i] = t end
                  t = wider
                end
                emit(t)
                """)
        #expect(found?.message == "test.lua:7: emit: the table holds more than 100000 values")
        #expect(found?.location == SourceLocation(file: "test.lua", line: 7))
    }

    /// A table shared by two fields, with no cycle, is emitted in both places.
    @Test func aSharedTableIsEmittedWhereverItAppears() async throws {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let summary = try await harness.run(
            """
            local shared = { 1, 2 }
            emit({ first = shared, second = shared })
            """)
        #expect(summary.outcome == .passed, "\(harness.view.problems)")
        let pair: JSONValue = .array([.int(1), .int(2)])
        #expect(harness.view.emitted == [.object(["first": pair, "second": pair])])
    }

    /// `error({code=5})` reported `table: 0x7f…` with no place: the message says where,
    /// in the standalone interpreter's words.
    @Test func anErrorRaisedWithATableNamesFileAndLine() async throws {
        let found = try await problem(
            of: """
                device.query("*IDN?")
                error({code=5})
                """)
        #expect(
            found
                == ScriptProblem(
                    location: SourceLocation(file: "test.lua", line: 2),
                    message: "test.lua:2: (error object is a table value)"))
    }

    /// An error object with `__tostring` shows its text; one raised from a function or
    /// an `on` handler names the line that raised it.
    @Test(arguments: [
        (
            """
            local E = setmetatable({}, { __tostring = function() return "flash failed" end })
            local function burn() error(E) end
            burn()
            """, "test.lua:2: flash failed"
        ),
        (
            """
            device.on("^!ALARM", function() error({ kind = "alarm" }) end)
            device.send("ALARM:TEST")
            sleep(3000)
            """, "test.lua:1: (error object is a table value)"
        ),
        ("error(42)", "test.lua:1: 42"),
    ])
    func errorObjectsArePlaced(script: String, message: String) async throws {
        let found = try await problem(of: script)
        #expect(found?.message == message)
    }
}
