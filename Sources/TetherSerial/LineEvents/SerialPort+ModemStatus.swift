import CPtyCompat

extension SerialPort: ModemStatusSource {
    /// The modem lines (`TIOCMGET`, emulated on a pty: ``ModemLines``) and the driver's
    /// change and overrun counts (`TIOCGICOUNT`; `nil` on a pty and where the driver
    /// keeps none).
    ///
    /// - Throws: ``SerialError`` if the port is closed or `TIOCMGET` fails.
    public func modemStatus() throws(SerialError) -> ModemStatus {
        let lines = try modemLines()
        var counts: [Int32] = [0, 0, 0, 0, 0]
        let counted = try withOpenPort("TIOCGICOUNT") { _ in
            tether_tty_get_modem_counts(handle.descriptor, &counts) == 0
        }
        guard counted else { return ModemStatus(lines: lines) }
        return ModemStatus(lines: lines, changeCounts: counts[0..<4].map(Int.init), overruns: Int(counts[4]))
    }
}
