import TetherModel
import TetherPresenter

/// Runs a script over devices and reports everything through a `RunView`: the
/// library face of `tether run`.
///
/// ```swift
/// let script = try PreparedScript(
///     Script(name: "check.lua", text: source, language: .lua), deviceNames: [nil])
/// let runner = ScriptRunner(devices: [ScriptDevice(name: nil, device: device)], view: JSONView())
/// let summary = await runner.run(script)   // summary.outcome: .passed, .failed, …
/// ```
///
/// The runner starts the devices (after attaching to them, so `connected` is
/// reported), runs the script on a dedicated thread (see `RunMediator`), closes the
/// devices — pending requests are then reported as failed — and renders the summary.
public struct ScriptRunner: Sendable {
    /// The devices, the first one being a query file's device and Lua's `device`
    /// unless an unnamed one is given.
    public var devices: [ScriptDevice]
    /// Where records go.
    public var view: any RunView
    /// The reply timeout of each query and the default wait of `expect`/`await`;
    /// `nil` for none.
    public var defaultTimeout: Duration?
    /// The most memory a Lua script's state may hold, in bytes; a script that needs
    /// more ends with a script error naming its line.
    public var luaMemoryLimit: Int

    /// The default ``luaMemoryLimit``: 256 MiB.
    public static let defaultLuaMemoryLimit = 256 << 20

    /// Creates a runner.
    public init(
        devices: [ScriptDevice], view: any RunView, defaultTimeout: Duration? = .seconds(1),
        luaMemoryLimit: Int = ScriptRunner.defaultLuaMemoryLimit
    ) {
        self.devices = devices
        self.view = view
        self.defaultTimeout = defaultTimeout
        self.luaMemoryLimit = luaMemoryLimit
    }

    /// Runs `prepared` to its end.
    ///
    /// The outcome, worst first: `device_error` when a device disconnected during
    /// the run; `script_error` for a Lua error (reported as a `script_error` record);
    /// `timeout` when a step timed out and the script did not handle it; `failed`
    /// when an expectation failed or an error reply went unhandled; else `passed`.
    ///
    /// - Returns: the summary, as rendered last.
    public func run(_ prepared: PreparedScript) async -> RunSummary {
        precondition(!devices.isEmpty, "a run needs a device")
        // Only Lua reads raw bytes (`dev.read`).
        let mediator = RunMediator(devices: devices, view: view, capturesBytes: prepared.script.language == .lua)
        await mediator.start()
        let script = prepared.script
        let timeout = defaultTimeout
        let memoryLimit = luaMemoryLimit
        let outcome = await ScriptThread.run { () -> ScriptOutcome in
            switch prepared.body {
            case .queries(let file):
                QueryFileRun(file: file, name: script.name, mediator: mediator, timeout: timeout).run()
            case .lua:
                LuaRun(script: script, mediator: mediator, defaultTimeout: timeout, memoryLimit: memoryLimit).run()
            }
        }
        if case .failed(let problem) = outcome.ending { mediator.report(.scriptFailed(problem)) }
        await mediator.close()
        let summary = mediator.summary
        let result: RunSummary.Outcome
        if mediator.hasLostDevice {
            result = .deviceError
        } else if case .failed = outcome.ending {
            result = .scriptError
        } else if case .deviceLost = outcome.ending {
            result = .deviceError
        } else if outcome.unhandledTimeouts > 0 {
            result = .timedOut
        } else if summary.failed > 0 || outcome.unhandledErrorReplies > 0 {
            result = .failed
        } else {
            result = .passed
        }
        return mediator.finish(
            outcome: result, unhandled: outcome.unhandledTimeouts + outcome.unhandledErrorReplies)
    }
}
