import TetherModel
import TetherSerial

/// What the console asks of the device it works with: ``Device`` on a real port or
/// the simulator, a stand-in that records in tests.
public protocol ConsoleDevice: Sendable {
    /// Sends a line typed in line mode as a command (the dialect adds its
    /// terminator), as the answer to the prompt shown (``Device/sendAtShownPrompt(_:timeout:)``).
    ///
    /// - Parameter timeout: how long to wait for its reply; `nil` for no deadline.
    func sendLine(_ line: String, timeout: Duration?)
    /// Writes `bytes` exactly as they are, in order with the lines sent: no
    /// terminator, no reply awaited (raw mode's keys, a sent file).
    func sendBytes(_ bytes: [UInt8])
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
    /// - Throws: ``SerialError`` when the port refuses it or is away.
    func setBaudRate(_ baudRate: Int) async throws(SerialError)
}

extension Device: ConsoleDevice {
    public func sendLine(_ line: String, timeout: Duration?) {
        sendAtShownPrompt(line, timeout: timeout)
    }

    /// Sends `bytes` as a keystroke command of the ``ConsoleDialect`` the device was
    /// made with.
    public func sendBytes(_ bytes: [UInt8]) {
        send(ConsoleDialect.keystrokes(bytes), timeout: nil)
    }
}
