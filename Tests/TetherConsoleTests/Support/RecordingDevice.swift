import Synchronization
import TetherConsole
import TetherModel
import TetherSerial
import TetherTransfer

/// A device that records what the console sends and does to the port's lines.
final class RecordingDevice: ConsoleDevice {
    enum Sent: Equatable {
        case line([UInt8], timeout: Duration?)
        case bytes([UInt8])
        /// An immediate write (``ConsoleDevice/sendNow(_:)``).
        case now([UInt8])
    }

    /// The port's lines: modem lines as set, and each break, pulse and baud rate asked.
    final class Lines: LineControl {
        struct State {
            var modemLines: ModemLines = [.dtr, .rts]
            var breaks: [Int] = []
            var pulses: [Int] = []
            var baudRates: [Int] = []
            var sequences: [String] = []
        }
        let state = Mutex(State())

        func setDTR(_ asserted: Bool) throws(SerialError) { set(.dtr, asserted) }
        func setRTS(_ asserted: Bool) throws(SerialError) { set(.rts, asserted) }
        private func set(_ line: ModemLines, _ asserted: Bool) {
            state.withLock { state in
                if asserted { state.modemLines.formUnion(line) } else { state.modemLines.subtract(line) }
            }
        }
        func setLines(dtr: Bool?, rts: Bool?) throws(SerialError) {
            if let dtr { set(.dtr, dtr) }
            if let rts { set(.rts, rts) }
        }
        func setBreak(_ isOn: Bool) throws(SerialError) {}
        func modemLines() throws(SerialError) -> ModemLines { state.withLock { $0.modemLines } }
        func sendBreak(milliseconds: Int) throws(SerialError) { state.withLock { $0.breaks.append(milliseconds) } }
        func pulseDTR(milliseconds: Int) throws(SerialError) { state.withLock { $0.pulses.append(milliseconds) } }
        func setBaudRate(_ baudRate: Int) throws(SerialError) { state.withLock { $0.baudRates.append(baudRate) } }
    }

    let lines = Lines()
    private let sent = Mutex<[Sent]>([])
    /// The error every line-control call fails with (a port away), if set.
    let failure: SerialError?

    /// The other side of a transfer, run against the console's on a perfect line;
    /// `nil`: a peer that never answers (the transfer runs until cancelled).
    let peer: (any TransferMachine)?
    /// The bytes the console's transfers wrote, joined.
    let transferWrites = Mutex<[UInt8]>([])
    private let peerEnd = Mutex<TransferOutcome?>(nil)
    /// How the peer's side of the last transfer ended.
    var peerOutcome: TransferOutcome? { peerEnd.withLock { $0 } }

    init(failing failure: SerialError? = nil, peer: (any TransferMachine)? = nil) {
        self.failure = failure
        self.peer = peer
    }

    /// What was sent, in order.
    var sentItems: [Sent] { sent.withLock { $0 } }

    /// The bytes sent as bytes, joined.
    var sentBytes: [UInt8] {
        sentItems.flatMap { (item) -> [UInt8] in if case .bytes(let bytes) = item { bytes } else { [] } }
    }

    func sendLine(_ bytes: [UInt8], timeout: Duration?) {
        sent.withLock { $0.append(.line(bytes, timeout: timeout)) }
    }

    func sendBytes(_ bytes: [UInt8]) {
        sent.withLock { $0.append(.bytes(bytes)) }
    }

    func sendNow(_ bytes: [UInt8]) {
        sent.withLock { $0.append(.now(bytes)) }
    }

    func withLineControl<Result: Sendable>(
        _ body: @escaping @Sendable (any LineControl) throws(SerialError) -> Result
    ) async throws(SerialError) -> Result {
        if let failure { throw failure }
        return try body(lines)
    }

    /// Reports the rate set, 8N1, as a port that took it.
    func setBaudRate(_ baudRate: Int) async throws(SerialError) -> SettingsReport {
        try await withLineControl { (line) throws(SerialError) in try line.setBaudRate(baudRate) }
        return SettingsReport(actual: SerialConfiguration(baudRate: baudRate))
    }

    func run(_ sequence: LineSequence) async throws(SerialError) {
        if let failure { throw failure }
        lines.state.withLock { $0.sequences.append(sequence.name) }
    }

    /// Runs `machine` against ``peer``, each one's writes fed to the other at once, no
    /// time passing; with no peer, waits until cancelled and then cancels `machine`.
    func transfer(
        _ machine: some TransferMachine, report: @escaping @Sendable (TransferEvent) -> Void
    ) async -> TransferOutcome {
        var ours: any TransferMachine = machine
        let now = ContinuousClock.now
        guard var peer else {
            _ = perform(ours.start(now: now), report: report)
            let (waiting, held) = AsyncStream.makeStream(of: Never.self)
            for await _ in waiting {}  // ends when the task is cancelled
            held.finish()
            return perform(ours.cancel(now: now), report: report).outcome ?? .failed(.cancelled)
        }
        var (toPeer, outcome) = perform(ours.start(now: now), report: report)
        var toUs = peerWrites(of: peer.start(now: now))
        while outcome == nil {
            guard !toPeer.isEmpty || !toUs.isEmpty else { return .failed(.disconnected(reason: "the line is quiet")) }
            let incoming = toUs
            toUs = peerWrites(of: peer.receive(toPeer, now: now))
            (toPeer, outcome) = perform(ours.receive(incoming, now: now), report: report)
        }
        return outcome ?? .failed(.cancelled)
    }

    private func perform(_ actions: [TransferAction], report: (TransferEvent) -> Void) -> (
        written: [UInt8], outcome: TransferOutcome?
    ) {
        var written: [UInt8] = []
        var outcome: TransferOutcome?
        for action in actions {
            switch action {
            case .write(let bytes): written += bytes
            case .report(let event): report(event)
            case .finished(let end): outcome = end
            }
        }
        transferWrites.withLock { $0 += written }
        return (written, outcome)
    }

    /// The bytes `actions` of the peer write; its end goes to ``peerOutcome``.
    private func peerWrites(of actions: [TransferAction]) -> [UInt8] {
        actions.flatMap { (action) -> [UInt8] in
            switch action {
            case .write(let bytes): return bytes
            case .finished(let outcome): peerEnd.withLock { $0 = outcome }
            case .report: break
            }
            return []
        }
    }
}
