/// What a port says about its serial settings once it is open and configured: the
/// settings it has (read back from it, not the ones asked for), each requested
/// setting it does not have, and other problems of the open worth telling the user.
///
/// A ``SerialPort`` reads its settings back from the driver (termios); an
/// ``RFC2217Port`` takes the server's answers to its `SET-*` commands; a raw
/// ``TCPPort`` knows nothing of them (``actual`` is `nil`).
public struct SettingsReport: Sendable, Equatable {
    /// The settings the port has; `nil` when it does not say (raw TCP, an RFC 2217
    /// server that refused serial port control).
    public var actual: SerialConfiguration?
    /// Each requested setting the port does not have, in the order baud rate, data
    /// bits, parity, stop bits, flow control.
    public var mismatches: [SettingMismatch]
    /// Other problems of the open, one line each naming the port (an RFC 2217 server
    /// that refused serial port control, so its own settings apply).
    public var warnings: [String]

    /// Creates a report.
    public init(actual: SerialConfiguration? = nil, mismatches: [SettingMismatch] = [], warnings: [String] = []) {
        self.actual = actual
        self.mismatches = mismatches
        self.warnings = warnings
    }

    /// The report of a port asked for `requested` that has `actual`.
    public init(requested: SerialConfiguration, actual: SerialConfiguration) {
        self.init(actual: actual, mismatches: requested.mismatches(in: actual))
    }
}
