/// The outcome of one blocking ``SerialPort/read(maxBytes:timeout:)``.
public enum SerialReadResult: Sendable, Equatable {
    /// Bytes received, in order, never empty.
    case data([UInt8])
    /// Nothing arrived within the timeout.
    case timedOut
    /// The device hung up or the port was closed.
    case hungUp
}
