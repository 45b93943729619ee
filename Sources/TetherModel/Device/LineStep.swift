/// One step of a timed sequence of line states (``LineSequence``): the modem control
/// lines and the break to set at once, then how long to hold them before the next step.
///
/// A `nil` line is left as it is. DTR and RTS change together, in one `TIOCMSET` on a
/// local port (`TetherSerial/LineControl/setLines(dtr:rts:)`), so a board never sees
/// the state between them.
public struct LineStep: Sendable, Equatable, CustomStringConvertible {
    /// DTR asserted (`true`), deasserted (`false`) or unchanged (`nil`).
    public var dtr: Bool?
    /// RTS asserted, deasserted or unchanged.
    public var rts: Bool?
    /// A break started (`true`), ended (`false`) or unchanged (`nil`).
    public var isBreak: Bool?
    /// How long the state is held before the next step (and before the sequence is
    /// over, after the last one).
    public var hold: Duration

    /// Creates a step.
    public init(dtr: Bool? = nil, rts: Bool? = nil, isBreak: Bool? = nil, hold: Duration = .zero) {
        self.dtr = dtr
        self.rts = rts
        self.isBreak = isBreak
        self.hold = hold
    }

    /// Whether the step changes a line (it may only wait).
    public var changesLines: Bool { dtr != nil || rts != nil || isBreak != nil }

    /// The step as `DTR=on RTS=off break=on, 100 ms`; `wait 50 ms` for a pure wait.
    public var description: String {
        var parts: [String] = []
        if let dtr { parts.append("DTR=\(dtr ? "on" : "off")") }
        if let rts { parts.append("RTS=\(rts ? "on" : "off")") }
        if let isBreak { parts.append("break=\(isBreak ? "on" : "off")") }
        let milliseconds = hold.milliseconds
        if parts.isEmpty { return "wait \(milliseconds) ms" }
        return parts.joined(separator: " ") + (milliseconds > 0 ? ", \(milliseconds) ms" : "")
    }
}
