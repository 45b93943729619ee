import FoundationEssentials

/// A port's modem control lines as views show them (`tether lines`): which of DTR,
/// RTS, CTS, DSR, DCD and RI are asserted (EIA-232 names), read once.
public struct ModemLineStatus: Sendable, Equatable {
    /// One modem control line; `rawValue` is its lowercase name, as in JSON.
    public enum Line: String, CaseIterable, Sendable {
        /// Data Terminal Ready (output).
        case dtr
        /// Request To Send (output).
        case rts
        /// Clear To Send (input).
        case cts
        /// Data Set Ready (input).
        case dsr
        /// Data Carrier Detect (input).
        case dcd
        /// Ring Indicator (input).
        case ri
    }

    /// When the lines were read.
    public var time: Date
    /// The port as the user named it, or the one `--match` found.
    public var port: String
    /// The lines that are asserted (on).
    public var asserted: Set<Line>
    /// Whether tether emulates the lines: a pseudo-terminal has none.
    public var isEmulated: Bool

    /// Creates a status.
    public init(time: Date, port: String, asserted: Set<Line>, isEmulated: Bool) {
        self.time = time
        self.port = port
        self.asserted = asserted
        self.isEmulated = isEmulated
    }
}

/// A view that can show a port's modem control lines.
public protocol ModemLineView: Sendable {
    /// Shows the lines, every line in ``ModemLineStatus/Line`` order.
    func render(modemLines: ModemLineStatus)
}
