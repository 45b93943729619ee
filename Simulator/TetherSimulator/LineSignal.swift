/// What a client did to the simulated port beside sending bytes, as a serial device
/// would see it: the modem control lines it drives, a break, the baud rate it set.
///
/// A pseudo-terminal has no modem lines and ignores a break; tether's pty compatibility
/// layer (`Sources/CPtyCompat`) announces them to the simulator (`LineSignalListener`).
/// The baud rate is the slave's termios, which the master shares. Simulator/README.md,
/// "Modem lines and breaks".
public enum LineSignal: Sendable, Equatable {
    /// DTR and RTS as the client now drives them (asserted: `true`).
    case modemLines(dtr: Bool, rts: Bool)
    /// A break began (`true`) or ended.
    case breakSignal(isOn: Bool)
    /// The client set the port's baud rate (bit/s).
    case baudRate(Int)
}
