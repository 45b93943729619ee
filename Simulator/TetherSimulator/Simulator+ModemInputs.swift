import Glibc

extension Simulator {
    /// The modem status inputs a simulated device plays to its client: CTS, DSR, DCD,
    /// RI (the `TIOCM_*` bits).
    public struct ModemInputs: OptionSet, Sendable, Hashable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Clear To Send.
        public static let cts = ModemInputs(rawValue: TIOCM_CTS)
        /// Data Set Ready.
        public static let dsr = ModemInputs(rawValue: TIOCM_DSR)
        /// Data Carrier Detect.
        public static let dcd = ModemInputs(rawValue: TIOCM_CAR)
        /// Ring Indicator.
        public static let ri = ModemInputs(rawValue: TIOCM_RNG)
        /// What a pty shows until a device plays others: CTS, DSR and DCD on, RI off.
        public static let idle: ModemInputs = [.cts, .dsr, .dcd]
    }

    /// The window width in pixels that marks the height as holding ``ModemInputs``:
    /// `TETHER_SIMULATED_LINES_MAGIC` of tether's pty compatibility layer (`CPtyCompat`).
    static let modemInputsMarker: UInt16 = 0x5453

    /// Plays `inputs` to the client: drops DCD (a lost carrier), rings RI, drops CTS.
    ///
    /// A pty has no modem lines; the simulator sets the pty's window size (shared by
    /// both ends) to `modemInputsMarker` pixels wide and `inputs` high, which tether's
    /// pty compatibility layer reads as the inputs (docs/HARDWARE.md, "What a
    /// pseudo-terminal can show"). Other programs see only an odd pixel size.
    ///
    /// - Returns: `false` when no pty is open (stopped, or away for a disconnect fault).
    @discardableResult
    public func setModemInputs(_ inputs: ModemInputs) -> Bool {
        guard let terminal = state.withLock({ $0.terminal }) else { return false }
        return terminal.play(inputs)
    }
}

extension Simulator.ModemInputs: CustomStringConvertible {
    /// The inputs asserted, e.g. `CTS DSR`; `none` when none is.
    public var description: String {
        let names = [(Self.cts, "CTS"), (.dsr, "DSR"), (.dcd, "DCD"), (.ri, "RI")].filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: " ")
    }
}

extension PseudoTerminal {
    /// Sets the window size to `modemInputsMarker` pixels wide and `inputs`
    /// high (see ``Simulator/setModemInputs(_:)``).
    ///
    /// - Returns: whether `TIOCSWINSZ` took it.
    @discardableResult
    func play(_ inputs: Simulator.ModemInputs) -> Bool {
        var size = winsize()
        _ = ioctl(master, UInt(TIOCGWINSZ), &size)
        size.ws_xpixel = Simulator.modemInputsMarker
        size.ws_ypixel = UInt16(truncatingIfNeeded: inputs.rawValue)
        return ioctl(master, UInt(TIOCSWINSZ), &size) == 0
    }
}
