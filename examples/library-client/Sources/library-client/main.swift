import TetherModel
import TetherPresenter
import TetherSimulator

// The built-in `env` profile (an environmental chamber) on a new pseudo-terminal,
// served by a thread of this process.
let simulator = try Simulator()
defer { simulator.stop() }

// Its notifications start with `!`; everything else answers a command.
let dialect = LineDialect(notificationPattern: try LinePattern("^!"))
let device = try Device.open(simulator.devicePath, dialect: dialect)
// Attach before start() to see every event from `connected` on.
let events = device.events(.lossless)
await device.start()

// The presenter turns the events into records for the view, until two readings came.
let port = simulator.devicePath
let presenting = Task { await present(events, port: port) }

let identity = try await device.query("*IDN?", timeout: .seconds(2))
print("identity: \(identity.lines.first?.text ?? "none")")
_ = try await device.query("RATE 100", timeout: .seconds(2))  // a reading every 100 ms

let state = await presenting.value
print("\(state.counts.replies) replies, \(state.counts.notifications) notifications")
await device.close()

/// Renders `events` on a ``ReadingPrinter`` until two notifications came; the final state.
func present(_ events: DeviceEvents, port: String) async -> ViewState {
    var presenter = Presenter(port: port)
    return await presenter.present(events, to: ReadingPrinter(), until: { $0.counts.notifications >= 2 })
}

// The DocC articles' code (ArticleSnippets.swift), each against a simulator of its own.
try await gettingStarted()
try await transferFile()
try await queryThermometer()
let silent = try Simulator(device: ScriptedDevice(rules: []))  // never answers
let unanswered = try Device.open(silent.devicePath)
await unanswered.start()
await queryWithTimeout(unanswered)
await unanswered.close()
silent.stop()
