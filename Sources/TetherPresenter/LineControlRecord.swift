/// What tether did to a port's lines or settings, for the views (the Model's
/// `LineControlEvent`): a sequence begun, line states set, settings read back after a
/// change. docs/JSON.md, "Line control".
public enum LineControlRecord: Sendable, Equatable, CustomStringConvertible {
    /// One step: DTR, RTS, break (`nil`: unchanged) and how long it is held, in ms.
    public struct Step: Sendable, Equatable, CustomStringConvertible {
        /// DTR asserted (`true`), released (`false`) or unchanged (`nil`).
        public var dtr: Bool?
        /// RTS asserted (`true`), released (`false`) or unchanged (`nil`).
        public var rts: Bool?
        /// Break on (`true`), off (`false`) or unchanged (`nil`).
        public var isBreak: Bool?
        /// How long the step's state is held before the next step, in milliseconds.
        public var holdMilliseconds: Int

        /// Creates a step.
        public init(dtr: Bool?, rts: Bool?, isBreak: Bool?, holdMilliseconds: Int) {
            self.dtr = dtr
            self.rts = rts
            self.isBreak = isBreak
            self.holdMilliseconds = holdMilliseconds
        }

        /// `DTR=on RTS=off` (only the lines it sets), `break=on`, or `wait`.
        public var lines: String {
            var parts: [String] = []
            if let dtr { parts.append("DTR=\(dtr ? "on" : "off")") }
            if let rts { parts.append("RTS=\(rts ? "on" : "off")") }
            if let isBreak { parts.append("break=\(isBreak ? "on" : "off")") }
            return parts.isEmpty ? "wait" : parts.joined(separator: " ")
        }

        /// ``lines`` and the hold: `DTR=off RTS=on 100 ms`.
        public var description: String { holdMilliseconds > 0 ? "\(lines) \(holdMilliseconds) ms" : lines }
    }

    /// A sequence of line states began: its name and steps.
    case sequence(name: String, steps: [Step])
    /// A step was applied: the lines it set.
    case lines(Step)
    /// The settings the port has after a change (`921600 8N1`).
    case settingsChanged(settings: String)

    /// One line for people: `line sequence esptool-classic: DTR=off, RTS=on 100 ms, …`,
    /// `lines set: DTR=on RTS=off`, `settings now 921600 8N1`.
    public var description: String {
        switch self {
        case .sequence(let name, let steps):
            "line sequence \(name): " + steps.map(\.description).joined(separator: ", ")
        case .lines(let step): "lines set: \(step.lines)"
        case .settingsChanged(let settings): "settings now \(settings)"
        }
    }
}
