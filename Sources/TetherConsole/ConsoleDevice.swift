import TetherModel
import TetherSerial
import TetherTransfer

/// What the console asks of the device it works with: ``Device`` on a real port or
/// the simulator, a stand-in that records in tests.
public protocol ConsoleDevice: Sendable {
    /// Sends the bytes of a line typed in line mode (its escapes decoded) as a command,
    /// the dialect's terminator after them, as the answer to the prompt shown
    /// (``Device/sendAtShownPrompt(bytes:timeout:)``).
    ///
    /// - Parameter timeout: how long to wait for its reply; `nil` for no deadline.
    func sendLine(_ bytes: [UInt8], timeout: Duration?)
    /// Writes `bytes` exactly as they are, in order with the lines sent: no
    /// terminator, no reply awaited (raw mode's keys, a sent file, hex bytes;
    /// ``Device/write(_:)``).
    func sendBytes(_ bytes: [UInt8])
    /// Writes `bytes` exactly as they are and at once, ahead of the lines and bytes
    /// still queued and of a request in flight, which stays in flight (raw mode's
    /// Ctrl-C, ``InterruptKey``; ``Device/writeNow(_:)``). Nothing is written while the
    /// device is away.
    func sendNow(_ bytes: [UInt8])
    /// Runs `body` with the port's modem lines, break and baud rate
    /// (``Device/withLineControl(_:)``).
    ///
    /// - Throws: what `body` throws; ``SerialError`` when the port is away or has no
    ///   line control.
    func withLineControl<Result: Sendable>(
        _ body: @escaping @Sendable (any LineControl) throws(SerialError) -> Result
    ) async throws(SerialError) -> Result
    /// Changes the baud rate (bit/s), kept for a reconnect (``Device/setBaudRate(_:)``).
    ///
    /// - Returns: what the port reports having after the change.
    /// - Throws: ``SerialError`` when the port refuses it or is away.
    func setBaudRate(_ baudRate: Int) async throws(SerialError) -> SettingsReport
    /// Runs a timed sequence of line states, a reset (``Device/run(_:)``).
    ///
    /// - Throws: ``SerialError`` when the port refuses a line or is away.
    func run(_ sequence: LineSequence) async throws(SerialError)
    /// Runs a file transfer's `machine` on the port, which it owns meanwhile; cancelling
    /// the calling task cancels it (CAN CAN) (``Device/transfer(_:report:)``).
    ///
    /// - Parameter report: told each ``TransferEvent``, from any thread.
    /// - Returns: how it ended.
    func transfer(
        _ machine: some TransferMachine, report: @escaping @Sendable (TransferEvent) -> Void
    ) async -> TransferOutcome
}

extension Device: ConsoleDevice {
    public func sendLine(_ bytes: [UInt8], timeout: Duration?) {
        sendAtShownPrompt(bytes: bytes, timeout: timeout)
    }

    public func sendBytes(_ bytes: [UInt8]) {
        write(bytes)
    }

    public func sendNow(_ bytes: [UInt8]) {
        writeNow(bytes)
    }
}
