import Glibc

/// The modem control lines of a serial port (EIA/TIA-232): the outputs DTR and RTS,
/// the inputs CTS, DSR, DCD and RI.
///
/// Read with `TIOCMGET`. On a pseudo-terminal, which has no such lines, tether's pty
/// compatibility layer reports DTR and RTS as last set (both on until set) and CTS,
/// DSR and DCD on, RI off.
public struct ModemLines: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Data Terminal Ready (output).
    public static let dtr = ModemLines(rawValue: TIOCM_DTR)
    /// Request To Send (output).
    public static let rts = ModemLines(rawValue: TIOCM_RTS)
    /// Clear To Send (input).
    public static let cts = ModemLines(rawValue: TIOCM_CTS)
    /// Data Set Ready (input).
    public static let dsr = ModemLines(rawValue: TIOCM_DSR)
    /// Data Carrier Detect (input).
    public static let dcd = ModemLines(rawValue: TIOCM_CAR)
    /// Ring Indicator (input).
    public static let ri = ModemLines(rawValue: TIOCM_RNG)

    private static let named: [(ModemLines, String)] = [
        (.dtr, "DTR"), (.rts, "RTS"), (.cts, "CTS"), (.dsr, "DSR"), (.dcd, "DCD"), (.ri, "RI"),
    ]

    /// The asserted lines by name, e.g. `DTR RTS CTS`; `none` when none is.
    public var description: String {
        let names = Self.named.filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: " ")
    }
}
