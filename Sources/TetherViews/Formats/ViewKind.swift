import TetherPresenter

/// A kind of output a command renders — a device's events, a run's results, the port
/// list… — and the view type it needs: what a command asks an ``OutputFormat`` for.
package struct ViewKind<View>: Sendable {
    /// What it shows, for messages: `a device's events`.
    package let noun: String
    let maker: @Sendable (OutputFormat) -> (@Sendable (ViewSettings) -> View)?
}

extension ViewKind where View == any DeviceView {
    /// The event log of a device session (`query`, `monitor`, `connect` without a
    /// terminal).
    package static var eventLog: ViewKind { ViewKind(noun: "a device's events") { $0.eventLog } }
    /// The live view of a device's state (`monitor --live`) where it is records, not
    /// the terminal's dashboard.
    package static var liveState: ViewKind { ViewKind(noun: "a live device state") { $0.liveState } }
}

extension ViewKind where View == any RunView {
    /// A script run: its devices' traffic and its checks (`tether run`).
    package static var run: ViewKind { ViewKind(noun: "a script run") { $0.run } }
}

extension ViewKind where View == any PortListView {
    /// The serial ports found (`tether list`).
    package static var portList: ViewKind { ViewKind(noun: "the port list") { $0.portList } }
}

extension ViewKind where View == any DeviceView & ModemLineView {
    /// A port's modem control lines (`tether lines`).
    package static var modemLines: ViewKind { ViewKind(noun: "modem lines") { $0.modemLines } }
}

extension ViewKind where View == any TransferView {
    /// A file transfer's progress (`send`, `receive`).
    package static var transfer: ViewKind { ViewKind(noun: "a transfer") { $0.transfer } }
}

extension ViewKind where View == any ReportView {
    /// A recorded session's report (`tether report`).
    package static var report: ViewKind { ViewKind(noun: "a session report") { $0.report } }
}
