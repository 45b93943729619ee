import TetherPresenter

/// An output format (`--format`): its name and the views it makes, one maker per kind
/// of output (``ViewKind``) it can show.
///
/// Every command chooses its view here, so a new format is its view plus one entry in
/// ``all`` (`OutputFormat+BuiltIn.swift`), and a format that cannot show what a
/// command renders is refused by name (``UnsupportedFormat``), never guessed.
package struct OutputFormat: Sendable, Equatable, CustomStringConvertible {
    /// The name `--format` takes, e.g. `json`.
    package let name: String
    /// What it is, for `--help`: `JSON Lines`.
    package let summary: String
    /// Whether it is read by programs: then the records of a command that fails before
    /// its session starts (a port that cannot be opened, a script error) go to it, where
    /// text has only the command's error message.
    package let isForPrograms: Bool
    let eventLog: (@Sendable (ViewSettings) -> any DeviceView)?
    let run: (@Sendable (ViewSettings) -> any RunView)?
    let portList: (@Sendable (ViewSettings) -> any PortListView)?
    let modemLines: (@Sendable (ViewSettings) -> any DeviceView & ModemLineView)?
    let transfer: (@Sendable (ViewSettings) -> any TransferView)?
    let liveState: (@Sendable (ViewSettings) -> any DeviceView)?
    let report: (@Sendable (ViewSettings) -> any ReportView)?

    /// Creates a format; each maker it leaves out is a kind of output it cannot show.
    package init(
        name: String, summary: String, isForPrograms: Bool,
        eventLog: (@Sendable (ViewSettings) -> any DeviceView)? = nil,
        run: (@Sendable (ViewSettings) -> any RunView)? = nil,
        portList: (@Sendable (ViewSettings) -> any PortListView)? = nil,
        modemLines: (@Sendable (ViewSettings) -> any DeviceView & ModemLineView)? = nil,
        transfer: (@Sendable (ViewSettings) -> any TransferView)? = nil,
        liveState: (@Sendable (ViewSettings) -> any DeviceView)? = nil,
        report: (@Sendable (ViewSettings) -> any ReportView)? = nil
    ) {
        self.name = name
        self.summary = summary
        self.isForPrograms = isForPrograms
        self.eventLog = eventLog
        self.run = run
        self.portList = portList
        self.modemLines = modemLines
        self.transfer = transfer
        self.liveState = liveState
        self.report = report
    }

    /// The format named `name` (compared without case), if there is one.
    package static func named(_ name: String) -> OutputFormat? {
        all.first { $0.name == name.lowercased() }
    }

    /// The format of a log file by its name: a transcript for `.txt` and `.log` (what
    /// people read, as picocom's and tio's logs are), else JSON Lines.
    package static func forLog(_ path: String) -> OutputFormat {
        let name = path.lowercased()
        return name.hasSuffix(".txt") || name.hasSuffix(".log") ? .transcript : .json
    }

    /// The formats that can show `kind`, in the order of ``all``.
    package static func showing<View>(_ kind: ViewKind<View>) -> [OutputFormat] {
        all.filter { kind.maker($0) != nil }
    }

    /// Checks that this format can show `kind`.
    ///
    /// - Throws: ``UnsupportedFormat`` naming the format, the kind and the formats that
    ///   can show it.
    package func check<View>(_ kind: ViewKind<View>) throws(UnsupportedFormat) {
        if kind.maker(self) == nil { throw unsupported(kind) }
    }

    private func unsupported<View>(_ kind: ViewKind<View>) -> UnsupportedFormat {
        UnsupportedFormat(format: name, kind: kind.noun, supported: Self.showing(kind).map(\.name))
    }

    /// This format's view of `kind`.
    ///
    /// - Throws: ``UnsupportedFormat`` naming the format, the kind and the formats that
    ///   can show it.
    package func make<View>(_ kind: ViewKind<View>, _ settings: ViewSettings = ViewSettings())
        throws(UnsupportedFormat) -> View
    {
        guard let maker = kind.maker(self) else { throw unsupported(kind) }
        return maker(settings)
    }

    package var description: String { name }

    package static func == (left: OutputFormat, right: OutputFormat) -> Bool { left.name == right.name }
}
