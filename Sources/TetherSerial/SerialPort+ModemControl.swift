import CLibSerialPort
import CPtyCompat
import Glibc

extension SerialPort {
    /// Asserts or deasserts DTR (Data Terminal Ready).
    ///
    /// The corresponding libserialport function is `sp_set_dtr`. On a pty the change
    /// is remembered by the compatibility layer and read back by ``modemLines()``.
    ///
    /// - Throws: ``SerialError`` if the port is closed or the driver refuses
    ///   (e.g. under DTR/DSR flow control).
    public func setDTR(_ asserted: Bool) throws(SerialError) {
        try withOpenPort("sp_set_dtr") { (port) throws(SerialError) in
            try check(sp_set_dtr(port, asserted ? SP_DTR_ON : SP_DTR_OFF), function: "sp_set_dtr", path: name)
        }
    }

    /// Asserts or deasserts RTS (Request To Send).
    ///
    /// The corresponding libserialport function is `sp_set_rts`.
    ///
    /// - Throws: ``SerialError`` if the port is closed or the driver refuses
    ///   (e.g. under RTS/CTS flow control, where the driver owns RTS).
    public func setRTS(_ asserted: Bool) throws(SerialError) {
        try withOpenPort("sp_set_rts") { (port) throws(SerialError) in
            try check(sp_set_rts(port, asserted ? SP_RTS_ON : SP_RTS_OFF), function: "sp_set_rts", path: name)
        }
    }

    /// Sets DTR and RTS in one `TIOCMSET` (after a `TIOCMGET`), as esptool's
    /// `UnixTightReset` does, so a board sees both change at once; a `nil` line keeps
    /// its state. libserialport sets one line per call, so this goes to the kernel.
    ///
    /// - Throws: ``SerialError`` if the port is closed or the driver refuses.
    public func setLines(dtr: Bool?, rts: Bool?) throws(SerialError) {
        var set: Int32 = 0
        var clear: Int32 = 0
        for (asserted, bit) in [(dtr, TIOCM_DTR), (rts, TIOCM_RTS)] {
            guard let asserted else { continue }
            if asserted { set |= bit } else { clear |= bit }
        }
        guard set | clear != 0 else { return }
        try withOpenPort("TIOCMSET") { (_) throws(SerialError) in
            guard tether_tty_set_modem_lines(handle.descriptor, set, clear) == 0 else {
                throw SerialError.fromErrno(errno, path: name, function: "ioctl(TIOCMSET)")
            }
        }
    }

    /// Starts or ends a break (`sp_start_break`, `sp_end_break`: `TIOCSBRK`, `TIOCCBRK`).
    ///
    /// - Throws: ``SerialError`` if the port is closed or the driver refuses.
    public func setBreak(_ isOn: Bool) throws(SerialError) {
        let function = isOn ? "sp_start_break" : "sp_end_break"
        try withOpenPort(function) { (port) throws(SerialError) in
            try check(isOn ? sp_start_break(port) : sp_end_break(port), function: function, path: name)
        }
    }

    /// Reads the modem control lines (`TIOCMGET`): DTR and RTS as driven, CTS, DSR,
    /// DCD and RI as received.
    ///
    /// On a pty, which has no such lines, the value is the documented emulation: DTR
    /// and RTS as last set (both on until set), CTS, DSR and DCD on, RI off.
    ///
    /// - Throws: ``SerialError`` if the port is closed or `TIOCMGET` fails.
    public func modemLines() throws(SerialError) -> ModemLines {
        try withOpenPort("TIOCMGET") { (_) throws(SerialError) in
            var lines: Int32 = 0
            guard tether_tty_get_modem_lines(handle.descriptor, &lines) == 0 else {
                throw SerialError.fromErrno(errno, path: name, function: "ioctl(TIOCMGET)")
            }
            return ModemLines(rawValue: lines)
        }
    }

    /// Sends a break: holds the transmit line low for `milliseconds` ms.
    ///
    /// The corresponding libserialport functions are `sp_start_break` and
    /// `sp_end_break`. Blocks the calling thread for the duration.
    ///
    /// - Throws: ``SerialError`` if the port is closed or the driver refuses.
    public func sendBreak(milliseconds: Int) throws(SerialError) {
        try withOpenPort("sp_start_break") { (port) throws(SerialError) in
            try check(sp_start_break(port), function: "sp_start_break", path: name)
            Self.sleep(milliseconds: milliseconds)
            try check(sp_end_break(port), function: "sp_end_break", path: name)
        }
    }

    /// Resets a board wired to DTR (Arduino-style auto-reset): DTR off for
    /// `milliseconds` ms, then on again.
    ///
    /// - Throws: ``SerialError`` as ``setDTR(_:)``.
    public func pulseDTR(milliseconds: Int) throws(SerialError) {
        try setDTR(false)
        Self.sleep(milliseconds: milliseconds)
        try setDTR(true)
    }

    /// Waits until every written byte has been transmitted (drain; `tcdrain`).
    ///
    /// The corresponding libserialport function is `sp_drain`. It has no timeout:
    /// a receiver that never reads (e.g. a stalled pty master) blocks it, and
    /// ``close()`` waits for it.
    ///
    /// - Throws: ``SerialError`` if the port is closed or the device is gone.
    public func drain() throws(SerialError) {
        try withOpenPort("sp_drain") { (port) throws(SerialError) in
            try check(sp_drain(port), function: "sp_drain", path: name)
        }
    }

    /// Discards (flushes) buffered bytes: received but not yet read (`input`), and/or
    /// written but not yet transmitted (`output`).
    ///
    /// The corresponding libserialport function is `sp_flush`.
    ///
    /// - Throws: ``SerialError`` if the port is closed or the driver refuses.
    public func flush(input: Bool = true, output: Bool = true) throws(SerialError) {
        guard input || output else { return }
        let buffers = input && output ? SP_BUF_BOTH : input ? SP_BUF_INPUT : SP_BUF_OUTPUT
        try withOpenPort("sp_flush") { (port) throws(SerialError) in
            try check(sp_flush(port, buffers), function: "sp_flush", path: name)
        }
    }

    /// Sleeps the calling thread `milliseconds` ms (through `EINTR`).
    static func sleep(milliseconds: Int) {
        guard milliseconds > 0 else { return }
        var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
