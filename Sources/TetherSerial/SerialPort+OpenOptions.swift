extension SerialPort {
    /// What to do with one modem output line (DTR or RTS) when the port opens.
    public enum LineControl: String, Sendable, CaseIterable {
        /// Leave the line as it is. For DTR this also clears `HUPCL`, which
        /// libserialport's `sp_open` sets, so that closing the port does not drop DTR
        /// and reset Arduino-style boards. (Linux itself raises DTR and RTS when a
        /// port is opened while they are low; that is outside tether's control.)
        case keep
        /// Assert the line.
        case on
        /// Deassert the line.
        case off
    }

    /// How ``SerialPort/open(_:configuration:options:)`` takes the port.
    public struct OpenOptions: Sendable, Equatable {
        /// Take an exclusive `flock` on the port, and its UUCP lock file, before changing
        /// any setting, and fail with ``SerialError/busy(path:holder:)`` if another
        /// process holds one. Default `true`.
        public var exclusive: Bool
        /// Where the UUCP lock file (`LCK..<name>`, HDB format) is taken with
        /// ``exclusive``: default ``defaultLockDirectory``; `nil` takes none (the `flock`
        /// only).
        public var lockDirectory: String?
        /// `/run/lock`, where minicom, picocom and ser2net take theirs on Debian
        /// (`/var/lock` is a link to it; FHS 3.0 §5.9).
        public static let defaultLockDirectory = "/run/lock"
        /// DTR on open. Default ``LineControl/keep``; with `.on` or `.off` the port keeps
        /// `HUPCL`, so DTR drops when it closes.
        public var dtr: LineControl
        /// RTS on open. Default ``LineControl/keep``. Ignored under RTS/CTS flow control,
        /// where the driver owns RTS.
        public var rts: LineControl

        /// Creates options; the defaults are exclusive access (a lock file in
        /// `/run/lock`), DTR and RTS kept.
        public init(
            exclusive: Bool = true, lockDirectory: String? = defaultLockDirectory, dtr: LineControl = .keep,
            rts: LineControl = .keep
        ) {
            self.exclusive = exclusive
            self.lockDirectory = lockDirectory
            self.dtr = dtr
            self.rts = rts
        }
    }
}
