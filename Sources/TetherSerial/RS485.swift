/// RS-485 direction control: how long RTS (the transceiver's driver enable) is raised
/// before a write's first bit and kept after its last, in ms — pyserial's
/// `RS485Settings(delay_before_tx, delay_before_rx)`, the kernel's
/// `serial_rs485.delay_rts_before_send/after_send` (docs/HARDWARE.md, "RS-485").
public struct RS485Settings: Sendable, Equatable, CustomStringConvertible {
    /// RTS up this many ms before the first bit is sent.
    public var delayBeforeSend: Int
    /// RTS kept up this many ms after the last bit.
    public var delayAfterSend: Int

    /// Creates settings; delays in ms.
    public init(delayBeforeSend: Int = 0, delayAfterSend: Int = 0) {
        self.delayBeforeSend = delayBeforeSend
        self.delayAfterSend = delayAfterSend
    }

    /// Reads `BEFORE,AFTER` in ms (`1,2`), each 0 to 1000.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let before = Int(parts[0]), let after = Int(parts[1]),
            (0...1000).contains(before), (0...1000).contains(after)
        else { return nil }
        self.init(delayBeforeSend: before, delayAfterSend: after)
    }

    /// `1 ms before, 2 ms after`.
    public var description: String { "\(delayBeforeSend) ms before, \(delayAfterSend) ms after" }

    /// Who raises RTS around each write.
    public enum Mode: String, Sendable {
        /// The driver (`TIOCSRS485`), with its own timing.
        case kernel
        /// tether, around each write: RTS up, the delay, the write, the drain, the
        /// delay, RTS down — the writing thread waits meanwhile, as pyserial's `rs485`
        /// module does.
        case rtsOnSend = "rts-on-send"
    }
}

/// What an RS-485 port needs of the port it drives: the driver's RS-485 mode, RTS and
/// a drain. ``SerialPort`` has them; tests inject their own.
public protocol RS485Capable: SerialTransport, LineControl {
    /// Turns on the driver's RS-485 mode with `settings` (`TIOCSRS485`).
    ///
    /// - Throws: ``SerialError`` when the driver has none (a pty, most USB adapters).
    func enableKernelRS485(_ settings: RS485Settings) throws(SerialError)
    /// Waits until every written byte has left (`tcdrain`).
    func drain() throws(SerialError)
}
