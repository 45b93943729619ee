import Synchronization
import TetherTransfer

/// A simulated device that is the other side of a file transfer (`tether send --sim`,
/// `tether receive --sim`): it runs a `TransferMachine` — a receiver that keeps what
/// it gets, or a sender of a file — from the moment a client opens the port.
///
/// The simulator's faults (dropped, duplicated, corrupted bytes) act on what the
/// client sends it and what it sends back, so a noisy line can be tried end to end.
public final class TransferPeer: SimulatedDevice {
    private struct State {
        var machine: any TransferMachine
        var outcome: TransferOutcome?
        var received: [TransferFile] = []
    }

    private let state: Mutex<State>
    private let fresh: any TransferMachine

    /// A peer running `machine` (not yet started) for each client.
    public init(_ machine: some TransferMachine) {
        fresh = machine
        state = Mutex(State(machine: machine))
    }

    /// How the last transfer ended, once it has.
    public var outcome: TransferOutcome? { state.withLock { $0.outcome } }

    /// The files the peer received whole (a receiver).
    public var received: [TransferFile] { state.withLock { $0.received } }

    public func clientDidConnect(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        state.withLock { state in
            state = State(machine: fresh)
            return Self.outputs(state.machine.start(now: now), into: &state)
        }
    }

    public func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] {
        state.withLock { state in
            guard !state.machine.isFinished else { return [] }
            return Self.outputs(state.machine.receive(bytes, now: now), into: &state)
        }
    }

    public var nextWakeUp: ContinuousClock.Instant? { state.withLock { $0.machine.nextDeadline } }

    public func wakeUp(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        state.withLock { state in Self.outputs(state.machine.expire(now: now), into: &state) }
    }

    private static func outputs(_ actions: [TransferAction], into state: inout State) -> [DeviceOutput] {
        actions.compactMap { action in
            switch action {
            case .write(let bytes): return .send(bytes)
            case .report(.received(let file)): state.received.append(file)
            case .report: break
            case .finished(let outcome): state.outcome = outcome
            }
            return nil
        }
    }
}
