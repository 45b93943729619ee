import TetherPresenter

extension TextView: ModemLineView {
    /// One line on standard output, e.g. `DTR on  RTS on  CTS off  DSR off  DCD off  RI off`,
    /// followed by `(pseudo-terminal: emulated)` when tether emulates the lines.
    public func render(modemLines status: ModemLineStatus) {
        let lines = ModemLineStatus.Line.allCases.map {
            "\($0.rawValue.uppercased()) \(status.asserted.contains($0) ? "on" : "off")"
        }
        output.write(lines.joined(separator: "  ") + (status.isEmulated ? "  (pseudo-terminal: emulated)" : "") + "\n")
    }
}
