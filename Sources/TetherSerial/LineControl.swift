import CLibSerialPort
import Synchronization

/// What a port can do beside moving bytes: the modem control lines, break, and the
/// baud rate of an open port. ``SerialPort`` has it; a transport without it (a raw
/// TCP connection) does not, and the Model says so when asked.
///
/// Calls block for their length (a break, a DTR pulse): the Model makes them on its
/// port loop thread, between reads and writes.
public protocol LineControl: AnyObject, Sendable {
    /// Asserts or deasserts DTR (Data Terminal Ready).
    func setDTR(_ asserted: Bool) throws(SerialError)
    /// Asserts or deasserts RTS (Request To Send).
    func setRTS(_ asserted: Bool) throws(SerialError)
    /// Sets DTR and RTS together, in one call where the port allows it (`TIOCMSET` on a
    /// local port; one telnet exchange of two `SET-CONTROL` commands over RFC 2217); a
    /// `nil` line is left as it is. Does not block.
    func setLines(dtr: Bool?, rts: Bool?) throws(SerialError)
    /// Starts (`true`) or ends a break: the transmit line held low until ended. Does not
    /// block; the Model times the break on its port loop (`Device.sendBreak(milliseconds:)` of TetherModel).
    func setBreak(_ isOn: Bool) throws(SerialError)
    /// The modem control lines: DTR and RTS as driven, CTS, DSR, DCD and RI as received.
    func modemLines() throws(SerialError) -> ModemLines
    /// Holds the transmit line low for `milliseconds` ms.
    func sendBreak(milliseconds: Int) throws(SerialError)
    /// DTR off for `milliseconds` ms, then on (resets Arduino-style boards).
    func pulseDTR(milliseconds: Int) throws(SerialError)
    /// Changes the baud rate of the open port (bit/s, any positive rate).
    func setBaudRate(_ baudRate: Int) throws(SerialError)
}

extension SerialPort: LineControl {
    /// Changes the baud rate of the open port, e.g. after a bootloader switched its own,
    /// and reads the settings back into ``settingsReport`` (asked for: the settings of
    /// the open with this rate).
    ///
    /// The corresponding libserialport function is `sp_set_baudrate`.
    ///
    /// - Throws: ``SerialError/invalidConfiguration(_:)`` for a rate below 1 or above
    ///   `Int32.max`; ``SerialError/io(path:function:errno:message:)`` when the driver
    ///   refuses it.
    public func setBaudRate(_ baudRate: Int) throws(SerialError) {
        guard baudRate > 0, baudRate <= Int(Int32.max) else {
            throw .invalidConfiguration("baud rate \(baudRate) is out of range (1 to \(Int32.max))")
        }
        let actual = try withOpenPort("sp_set_baudrate") { (port) throws(SerialError) in
            try check(sp_set_baudrate(port, Int32(baudRate)), function: "sp_set_baudrate", path: name)
            return try SerialConfiguration.read(from: handle.descriptor, path: name)
        }
        var requested = configuration
        requested.baudRate = baudRate
        report.withLock { $0 = SettingsReport(requested: requested, actual: actual) }
    }
}
