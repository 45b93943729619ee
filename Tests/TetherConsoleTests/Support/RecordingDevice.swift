import Synchronization
import TetherConsole
import TetherSerial

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
        }
        let state = Mutex(State())

        func setDTR(_ asserted: Bool) throws(SerialError) { set(.dtr, asserted) }
        func setRTS(_ asserted: Bool) throws(SerialError) { set(.rts, asserted) }
        private func set(_ line: ModemLines, _ asserted: Bool) {
            state.withLock { state in
                if asserted { state.modemLines.formUnion(line) } else { state.modemLines.subtract(line) }
            }
        }
        func modemLines() throws(SerialError) -> ModemLines { state.withLock { $0.modemLines } }
        func sendBreak(milliseconds: Int) throws(SerialError) { state.withLock { $0.breaks.append(milliseconds) } }
        func pulseDTR(milliseconds: Int) throws(SerialError) { state.withLock { $0.pulses.append(milliseconds) } }
        func setBaudRate(_ baudRate: Int) throws(SerialError) { state.withLock { $0.baudRates.append(baudRate) } }
    }

    let lines = Lines()
    private let sent = Mutex<[Sent]>([])
    /// The error every line-control call fails with (a port away), if set.
    let failure: SerialError?

    init(failing failure: SerialError? = nil) {
        self.failure = failure
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

    func setBaudRate(_ baudRate: Int) async throws(SerialError) {
        try await withLineControl { (line) throws(SerialError) in try line.setBaudRate(baudRate) }
    }
}
