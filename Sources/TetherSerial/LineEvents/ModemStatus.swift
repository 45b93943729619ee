/// The modem status inputs of a port at one look, and the driver's counts of their
/// changes when it keeps them.
public struct ModemStatus: Sendable, Equatable {
    /// The lines asserted (the inputs CTS, DSR, DCD, RI; the outputs as driven).
    public var lines: ModemLines
    /// How many times CTS, DSR, DCD and RI changed since the driver began counting
    /// (`TIOCGICOUNT`), in that order; `nil` when it does not count (a pty, USB adapters
    /// whose driver keeps no counts). A change and back between two looks shows here
    /// and not in ``lines``.
    public var changeCounts: [Int]?
    /// How many overruns the driver counted (received characters lost: the UART's FIFO
    /// or the driver's buffer was full), when it counts them (`TIOCGICOUNT`).
    public var overruns: Int?

    /// Creates a status.
    public init(lines: ModemLines, changeCounts: [Int]? = nil, overruns: Int? = nil) {
        self.lines = lines
        self.changeCounts = changeCounts
        self.overruns = overruns
    }

    /// The modem status inputs, in the order of ``changeCounts``.
    public static let inputs: [ModemLines] = [.cts, .dsr, .dcd, .ri]

    /// The inputs that changed since `earlier`: those that read differently, and those
    /// whose change count moved (a ring between two looks).
    public func changedInputs(since earlier: ModemStatus) -> ModemLines {
        var changed = ModemLines()
        for (index, line) in Self.inputs.enumerated() {
            let counted = changeCounts.flatMap { now in earlier.changeCounts.map { now[index] != $0[index] } } ?? false
            if lines.contains(line) != earlier.lines.contains(line) || counted { changed.insert(line) }
        }
        return changed
    }
}

/// A port whose modem status inputs can be looked at: the Model looks every 100 ms and
/// reports each change as a ``LineEvent/modemLines(_:changed:)``.
public protocol ModemStatusSource: AnyObject, Sendable {
    /// The modem status inputs now, and the driver's change counts when it keeps them.
    ///
    /// - Throws: ``SerialError`` when the port is closed or `TIOCMGET` fails.
    func modemStatus() throws(SerialError) -> ModemStatus
}
