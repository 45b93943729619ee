import Synchronization
import Testing
import TetherCommandLine
import TetherConnection
import TetherModel
import TetherPresenter

/// A device command's life, owned by its ``Connection``, against the simulator `--sim`
/// starts in-process: the options read from a command line, the device opened with
/// them, the work run, the device closed and the exit code given.
@Suite struct ConnectionTests {
    /// A command that takes every option group a device command sends with.
    static let spec = CommandSpec(
        program: "test", name: "device", abstract: "A device command.",
        arguments: [ArgumentSpec(name: "port", help: "The port.", isOptional: true)],
        options: [ConnectionOptions.format.declaration], groups: ConnectionOptions.sendingGroups())

    static func options(_ arguments: [String]) throws -> ConnectionOptions {
        try ConnectionOptions(portOrSimulator: ParsedArguments(arguments, spec: spec))
    }

    /// The records a view was given.
    final class RecordingView: DeviceView {
        let records = Mutex<[ViewRecord]>([])
        func render(_ record: ViewRecord, state: ViewState) { records.withLock { $0.append(record) } }
        var replies: [String] {
            records.withLock { records in
                records.compactMap { record -> String? in
                    guard case .exchanged(let exchange) = record.event,
                        case .reply(let lines, _, _, _) = exchange.outcome
                    else { return nil }
                    return "\(exchange.command) → \(lines.map(\.text).joined(separator: " "))"
                }
            }
        }
    }

    /// The work's exit code is the session's; the view has rendered every reply when
    /// it returns, and the device is closed.
    @Test func runUntilStoppedGivesTheWorksCodeAndClosesTheDevice() async throws {
        let view = RecordingView()
        let connection = try await Connection(try Self.options(["--sim", "--baud", "9600"]), view: view)
        let device = connection.device
        let code = try await connection.runUntilStopped { stop in
            _ = try? await device.query("*IDN?", timeout: .seconds(60))
            stop.yield(.timeout)
        }
        #expect(code == .timeout)
        #expect(view.replies == ["*IDN? → TETHER,ENV-1,SIM0001,1.0"])
        await #expect(throws: RequestFailure.self) { try await device.query("*IDN?", timeout: .seconds(1)) }
    }

    /// `drive` gives back what the work returned, no signal, and closes the device.
    @Test func driveGivesTheWorksResultAndClosesTheDevice() async throws {
        let connection = try await Connection(try Self.options(["--sim"]), view: RecordingView())
        let device = connection.device
        let (result, signal) = try await connection.drive(onSignal: { _ in }) { 42 }
        #expect(result == 42)
        #expect(signal == nil)
        await #expect(throws: RequestFailure.self) { try await device.query("*IDN?", timeout: .seconds(1)) }
    }

    /// A `--log` file that cannot be opened fails before any port is opened (73); a
    /// simulator profile that does not exist is a usage error (64).
    @Test(arguments: [
        (["--log", "/nonexistent-tether-folder/log.jsonl"], ExitCode.cannotCreateLog),
        (["--profile", "no-such-profile"], .usage),
    ])
    func whatCannotBeOpenedHasItsExitCode(arguments: [String], code: ExitCode) async throws {
        let options = try Self.options(["--sim"] + arguments)
        await #expect {
            _ = try await Connection(options, view: RecordingView())
        } throws: { error in
            (error as? CommandFailure)?.code == code
        }
    }
}
