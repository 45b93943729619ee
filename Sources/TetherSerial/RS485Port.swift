import CPtyCompat
import Glibc

/// A serial port driven as an RS-485 transceiver: the driver raises RTS around each
/// write where it can (`TIOCSRS485`), else this port does, with the delays before and
/// after (``RS485Settings/Mode``); which one is in use is ``mode`` and a line of the
/// ``settingsReport``'s warnings, so the open tells the user.
///
/// Everything else — reads, line control, the settings — is the wrapped port's.
public final class RS485Port: SerialTransport, LineControl {
    /// The port driven.
    public let port: any RS485Capable
    /// The delays asked for.
    public let settings: RS485Settings
    /// Who raises RTS.
    public let mode: RS485Settings.Mode
    private let note: String

    /// Turns RS-485 direction control on for `port`: the driver's when it accepts
    /// `TIOCSRS485`, else RTS around each write; RTS is dropped (receiving) at once.
    ///
    /// - Throws: ``SerialError`` when RTS cannot be set (RTS/CTS flow control owns it).
    public init(_ port: any RS485Capable, settings: RS485Settings) throws(SerialError) {
        self.port = port
        self.settings = settings
        do throws(SerialError) {
            try port.enableKernelRS485(settings)
            mode = .kernel
            note = "RS-485: the driver raises RTS while sending (TIOCSRS485, \(settings))"
        } catch {
            try port.setRTS(false)
            mode = .rtsOnSend
            note =
                "RS-485: the driver has no RS-485 mode (\(error)); tether raises RTS around each write, \(settings)"
        }
    }

    public var name: String { port.name }
    public var descriptor: Int32 { port.descriptor }

    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        try port.receive(into: buffer)
    }

    /// Writes `bytes`: as they are with the driver's RS-485 mode; else RTS up, the delay
    /// before, every byte (waiting for room), the drain, the delay after, RTS down.
    public func transmit(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int {
        guard mode == .rtsOnSend, !bytes.isEmpty else { return try port.transmit(bytes) }
        try port.setRTS(true)
        defer { try? port.setRTS(false) }
        SerialPort.sleep(milliseconds: settings.delayBeforeSend)
        var written = 0
        while written < bytes.count {
            let count = try port.transmit(UnsafeRawBufferPointer(rebasing: bytes[written...]))
            written += count
            if count == 0 {
                var entry = pollfd(fd: port.descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, 1000)
            }
        }
        try port.drain()
        SerialPort.sleep(milliseconds: settings.delayAfterSend)
        return written
    }

    public var settingsReport: SettingsReport {
        var report = port.settingsReport
        report.warnings.append(note)
        return report
    }

    public func close() { port.close() }

    public func setDTR(_ asserted: Bool) throws(SerialError) { try port.setDTR(asserted) }
    public func setRTS(_ asserted: Bool) throws(SerialError) { try port.setRTS(asserted) }
    public func setLines(dtr: Bool?, rts: Bool?) throws(SerialError) { try port.setLines(dtr: dtr, rts: rts) }
    public func setBreak(_ isOn: Bool) throws(SerialError) { try port.setBreak(isOn) }
    public func modemLines() throws(SerialError) -> ModemLines { try port.modemLines() }
    public func sendBreak(milliseconds: Int) throws(SerialError) { try port.sendBreak(milliseconds: milliseconds) }
    public func pulseDTR(milliseconds: Int) throws(SerialError) { try port.pulseDTR(milliseconds: milliseconds) }
    public func setBaudRate(_ baudRate: Int) throws(SerialError) { try port.setBaudRate(baudRate) }

}

extension SerialPort: RS485Capable {
    /// Turns on the driver's RS-485 mode: RTS on while sending, with `settings`' delays
    /// (`TIOCSRS485`, <linux/serial.h>).
    ///
    /// - Throws: ``SerialError`` when the driver has none (ENOTTY on a pty and most USB
    ///   adapters, EINVAL on some UARTs).
    public func enableKernelRS485(_ settings: RS485Settings) throws(SerialError) {
        try withOpenPort("TIOCSRS485") { (_) throws(SerialError) in
            guard
                tether_tty_set_rs485(
                    handle.descriptor, UInt32(settings.delayBeforeSend), UInt32(settings.delayAfterSend)) == 0
            else {
                throw SerialError.fromErrno(errno, path: name, function: "ioctl(TIOCSRS485)")
            }
        }
    }
}
