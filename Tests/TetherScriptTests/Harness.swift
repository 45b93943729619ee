import TetherModel
import TetherPresenter
import TetherScript
import TetherSimulator

/// Simulated devices opened through the real serial path, and a run over them.
struct Harness {
    let simulators: [Simulator]
    let view = RecordingView()
    private let devices: [ScriptDevice]

    /// Starts one simulator per entry (`name`, behaviour) and opens each with
    /// ``Device/open(_:configuration:dialect:)``, speaking `dialect` (default: `line`,
    /// notifications starting with `!`).
    init(_ entries: [(name: String?, device: any SimulatedDevice)], dialect: (any Dialect)? = nil) throws {
        var simulators: [Simulator] = []
        var devices: [ScriptDevice] = []
        for entry in entries {
            let simulator = try Simulator(device: entry.device)
            simulators.append(simulator)
            let device = try Device.open(
                simulator.devicePath, dialect: try dialect ?? LineDialect(notificationPattern: LinePattern("^!")))
            devices.append(ScriptDevice(name: entry.name, device: device))
        }
        self.simulators = simulators
        self.devices = devices
    }

    /// Prepares and runs `text` as a script named `name`.
    func run(
        _ text: String, name: String = "test.lua", language: Script.Language = .lua,
        timeout: Duration? = .seconds(2), luaMemoryLimit: Int = ScriptRunner.defaultLuaMemoryLimit
    ) async throws -> RunSummary {
        let prepared = try PreparedScript(
            Script(name: name, text: text, language: language), deviceNames: devices.map(\.name))
        let runner = ScriptRunner(
            devices: devices, view: view, defaultTimeout: timeout, luaMemoryLimit: luaMemoryLimit)
        let summary = await runner.run(prepared)
        for simulator in simulators { simulator.stop() }
        return summary
    }
}
