import TetherSerial

/// A line event as views show it: a break, a framing or parity error, an overrun, or
/// a change of the modem status inputs (the Model's `LineEvent`).
public struct LineCondition: Sendable, Equatable {
    /// What happened; `rawValue` is the `event` field of the JSON `line_event` record.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A break received.
        case lineBreak = "break"
        /// A character with a framing error (a missing stop bit: often a wrong baud rate).
        case framingError = "framing_error"
        /// A character with a parity error.
        case parityError = "parity_error"
        /// A character with a framing or a parity error; the port does not say which.
        case framingOrParityError = "framing_or_parity_error"
        /// Received characters were lost.
        case overrun
        /// The modem status inputs changed.
        case modemLines = "modem_lines"
    }

    /// What happened.
    public var kind: Kind
    /// The character received with the error, when the port gave it.
    public var byte: UInt8?
    /// For ``Kind/modemLines``: the inputs asserted now (CTS, DSR, DCD, RI).
    public var asserted: Set<ModemLineStatus.Line>
    /// For ``Kind/modemLines``: the inputs that changed.
    public var changed: [ModemLineStatus.Line]

    /// Creates a condition.
    public init(
        kind: Kind, byte: UInt8? = nil, asserted: Set<ModemLineStatus.Line> = [],
        changed: [ModemLineStatus.Line] = []
    ) {
        self.kind = kind
        self.byte = byte
        self.asserted = asserted
        self.changed = changed
    }

    /// The modem status inputs, in the order views list them.
    public static let inputs: [ModemLineStatus.Line] = [.cts, .dsr, .dcd, .ri]

    /// The Model's line event as a condition.
    public init(_ event: LineEvent) {
        switch event {
        case .lineBreak: self.init(kind: .lineBreak)
        case .framingError(let byte): self.init(kind: .framingError, byte: byte)
        case .parityError(let byte): self.init(kind: .parityError, byte: byte)
        case .framingOrParityError(let byte): self.init(kind: .framingOrParityError, byte: byte)
        case .overrun: self.init(kind: .overrun)
        case .modemLines(let lines, let changed):
            let bits: [(ModemLineStatus.Line, ModemLines)] = [(.cts, .cts), (.dsr, .dsr), (.dcd, .dcd), (.ri, .ri)]
            self.init(
                kind: .modemLines, asserted: Set(bits.filter { lines.contains($0.1) }.map(\.0)),
                changed: bits.filter { changed.contains($0.1) }.map(\.0))
        }
    }

    /// How the text view and the transcript say it: `break received`,
    /// `framing error (byte 0x41)`, `DCD off (carrier lost)`, `RI on (ringing)`.
    public var summary: String {
        func withByte(_ text: String) -> String {
            guard let byte else { return text }
            let hex = String(byte, radix: 16, uppercase: true)
            return "\(text) (byte 0x\(hex.count == 1 ? "0" + hex : hex))"
        }
        switch kind {
        case .lineBreak: return "break received"
        case .framingError: return withByte("framing error")
        case .parityError: return withByte("parity error")
        case .framingOrParityError: return withByte("framing or parity error")
        case .overrun: return "overrun: received characters were lost"
        case .modemLines:
            return changed.map { line in
                let isOn = asserted.contains(line)
                let name = "\(line.rawValue.uppercased()) \(isOn ? "on" : "off")"
                switch (line, isOn) {
                case (.dcd, false): return name + " (carrier lost)"
                case (.dcd, true): return name + " (carrier detected)"
                case (.ri, true): return name + " (ringing)"
                default: return name
                }
            }.joined(separator: ", ")
        }
    }
}
