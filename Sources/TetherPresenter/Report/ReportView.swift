/// A view that can show a session report (`tether report`).
public protocol ReportView: Sendable {
    /// Shows the report; `source` names the log it was read from.
    func render(report: SessionReport, source: String)
}
