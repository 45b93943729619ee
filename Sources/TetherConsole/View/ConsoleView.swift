import FoundationEssentials
import Synchronization
import TetherLibC
import TetherPresenter
import TetherViews

/// The view of `connect` on a terminal: the text view drawn through the terminal
/// (``ConsoleScreen``, so it never breaks into typed text), with settings the escape
/// key's commands change during the session, and the `--log` file (JSON Lines) beside it.
///
/// In raw mode received bytes are shown as they arrive by
/// ``renderReceived(_:bytes:state:)`` (every chunk read from the port, from a
/// subscription that includes bytes), so the records show only connection events there;
/// in line mode they show replies (with round trip), notifications and connection
/// events. What was sent (typed lines, keystrokes as raw writes) appears in the log
/// only.
public final class ConsoleView: DeviceView {
    /// What the user can change during the session.
    public struct Settings: Sendable {
        public var mode: ConsoleMode
        /// Received bytes as hex pairs (`--hex`, the escape key's `h`).
        public var showsHex: Bool
        /// Each record and received line stamped with the time (`--timestamps`, `t`).
        public var showsTimestamps: Bool
        /// How times are written (`--timestamp-format`).
        public var timestampStyle: TimestampStyle = .hour24
        /// When tether's own text is coloured (`--color`).
        public var colour: ColorChoice = .auto
        /// The log file's view, if one is open.
        public var log: (any DeviceView)?
        /// The log file's path, if one is open.
        public var logPath: String?
        /// Whether the log gets the byte stream rather than the session's lines: in raw
        /// mode, and for a log that shows it (a transcript keeps the blank lines the
        /// session drops as framing, ``DeviceView/showsReceivedBytes``).
        var logsBytes: Bool { mode == .raw || log?.showsReceivedBytes == true }
        /// Line mode: switch to raw mode at a console's prompt (``ConsolePrompt``) once
        /// the device is quiet; set when the user did not choose the mode, cleared once
        /// it switched or the user switched (the escape key's `m`).
        public var switchesAtPrompt = false
        /// The serial settings the port has, from the latest `connected` or
        /// `reconnected` record or change of the baud rate (read back from the port);
        /// `nil` before the first.
        public var portSettings: String? = nil

        public init(
            mode: ConsoleMode, showsHex: Bool, showsTimestamps: Bool, log: (any DeviceView)?, logPath: String?,
            timestampStyle: TimestampStyle = .hour24
        ) {
            self.timestampStyle = timestampStyle
            self.mode = mode
            self.showsHex = showsHex
            self.showsTimestamps = showsTimestamps
            self.log = log
            self.logPath = logPath
        }
    }

    let terminal: any ConsoleScreen
    /// The settings in force; the escape key's commands change them.
    public let settings: Mutex<Settings>
    private let passthrough: Mutex<PassthroughFilter>
    /// `--map`: what raw mode shows of the bytes received.
    private let map: CharacterMap
    /// Line mode: bytes received after the last line end (at most ``tailLimit``).
    private let tail = Mutex<[UInt8]>([])
    /// The most bytes of an unterminated tail line mode shows.
    static let tailLimit = 256
    /// Line mode that may switch at a prompt: the bytes received since the last record
    /// that showed the device's lines (at most ``unshownLimit``), which raw mode shows
    /// when it takes over — the replies a settling session still held among them.
    private let unshown = Mutex<[UInt8]>([])
    /// The most bytes ``switchToRawAtPrompt()`` shows: 64 KiB.
    static let unshownLimit = 64 << 10
    /// Read once (for `NO_COLOR`): a text view is made per record, with the settings
    /// in force.
    private let environment = Environment.variables
    /// The session's timestamps (`24hour-delta` counts from the previous one).
    private let timestamper: Timestamper
    /// Said once, after a typed line's timeout, while nothing has been received.
    private let firstContact = Mutex<FirstContactHint?>(nil)

    /// A view drawn on `terminal`.
    ///
    /// - Parameters:
    ///   - mapsCR: show a lone CR received in raw mode as a line end (`--map-cr`).
    ///   - map: `--map`'s flags for received bytes, applied before raw mode shows them
    ///     as text (the hex view and the log keep them as they came).
    public init(
        terminal: any ConsoleScreen, settings: Settings, mapsCR: Bool = false, map: CharacterMap = CharacterMap()
    ) {
        self.terminal = terminal
        self.map = map
        self.settings = Mutex(settings)
        timestamper = Timestamper(settings.timestampStyle)
        var filter = PassthroughFilter()
        filter.endsLinesAtCR = mapsCR
        passthrough = Mutex(filter)
    }

    /// Says `hint` (once) after the first typed line that times out while nothing has
    /// been received since the port opened.
    public func hint(atFirstContact hint: FirstContactHint) {
        firstContact.withLock { $0 = hint }
    }

    public func render(_ record: ViewRecord, state: ViewState) {
        let settings = self.settings.withLock { settings in
            // Only an open says: a later change of the baud rate (the escape key's `B`)
            // sets them itself, and the session's state keeps the open's.
            switch record.event {
            case .connected(_, let shown), .reconnected(_, let shown, _, _): settings.portSettings = shown
            default: break
            }
            return settings
        }
        if settings.switchesAtPrompt, Self.isLineEvent(record.event) {
            let pending = tail.withLock { $0 }
            unshown.withLock { $0 = pending }
        }
        // Raw mode logs the byte stream (renderReceived) and what was typed, not the
        // session's reading of it into lines; so does a transcript.
        if !settings.logsBytes || !Self.isLineEvent(record.event) { settings.log?.render(record, state: state) }
        if settings.mode == .raw && !Self.isConnectionEvent(record.event) { return }
        if case .sent = record.event { return }
        // Line mode shows the bytes after the last line end its own way (showReceived).
        if case .pendingText = record.event { return }
        TextView(
            output: terminal, diagnostics: terminal, timestamps: settings.showsTimestamps ? timestamper : nil,
            showsHex: settings.showsHex, environment: environment, colour: settings.colour
        ).render(record, state: state)
        if case .exchanged(let exchange) = record.event, case .timedOut = exchange.outcome,
            let hint = firstContact.withLock({ $0 })?.afterTimeout()
        {
            terminal.write(hint + "\n")
        }
    }

    /// Shows bytes read from the port in raw mode: made safe by ``PassthroughFilter``
    /// (what the device changed is undone when the terminal stops,
    /// ``ConsoleScreen/undoOnExit(_:)``), or as hex pairs. In line mode, where the
    /// records show whole lines, only the bytes after the last line end are shown, once
    /// quiet (``ConsoleScreen/holdTail(_:switchesToRaw:)``): a console's prompt.
    public func renderReceived(_ record: ViewRecord, bytes: [UInt8], state: ViewState) {
        let settings = self.settings.withLock { $0 }
        if !bytes.isEmpty { firstContact.withLock { $0 }?.noteReceived() }
        if settings.logsBytes { settings.log?.render(record, state: state) }
        guard settings.mode == .raw else {
            let pending = tail.withLock { tail in
                if let end = bytes.lastIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
                    tail = Array(bytes[(end + 1)...].prefix(Self.tailLimit))
                } else if tail.count < Self.tailLimit {
                    tail += bytes.prefix(Self.tailLimit - tail.count)
                }
                return tail
            }
            if settings.switchesAtPrompt {
                unshown.withLock { unshown in
                    unshown += bytes
                    if unshown.count > Self.unshownLimit { unshown.removeFirst(unshown.count - Self.unshownLimit) }
                }
            }
            let shown = settings.showsHex ? ByteEscaping.hex(pending) : ByteEscaping.escaped(pending)
            terminal.holdTail(
                pending.isEmpty ? nil : shown + " [unterminated]",
                switchesToRaw: settings.switchesAtPrompt && ConsolePrompt.isPrompt(pending))
            return
        }
        showRaw(bytes, settings: settings)
    }

    /// Raw mode from now on, after a console's prompt was seen in line mode
    /// (``ConsoleInput/promptSeen``); no more switching at a prompt.
    ///
    /// - Returns: the prompt (the bytes after the last line end), and the bytes
    ///   received since the last record that showed the device's lines, the prompt
    ///   last (replies a settling session still holds would never be shown otherwise),
    ///   for ``showRaw(_:)`` once the switch is said.
    public func switchToRawAtPrompt() -> (prompt: [UInt8], unshown: [UInt8]) {
        settings.withLock { settings in
            settings.mode = .raw
            settings.switchesAtPrompt = false
        }
        let prompt = tail.withLock { tail in
            defer { tail = [] }
            return tail
        }
        return (
            prompt,
            unshown.withLock { unshown in
                defer { unshown = [] }
                return unshown
            }
        )
    }

    /// Shows `bytes` received as raw mode shows them (``renderReceived(_:bytes:state:)``).
    public func showRaw(_ bytes: [UInt8]) {
        showRaw(bytes, settings: settings.withLock { $0 })
    }

    private func showRaw(_ bytes: [UInt8], settings: Settings) {
        if settings.showsHex {
            terminal.writeBytes(Array((ByteEscaping.hex(bytes) + " ").utf8))
            return
        }
        let (shown, undo) = passthrough.withLock { filter in
            filter.timestamp = settings.showsTimestamps ? { [timestamper] in timestamper.stamp(Date()) } : nil
            let modes = filter.modes
            let shown = filter.filter(map.received(bytes))
            return (shown, filter.modes == modes ? nil : filter.modes.undo)
        }
        terminal.writeBytes(shown)
        if let undo { terminal.undoOnExit(undo) }
    }

    /// Undoes on the terminal what the device changed in raw mode, now (a switch to line
    /// mode, where it would stay in the way: the alternate screen, a hidden cursor).
    public func undoDeviceModes() {
        let undo = passthrough.withLock { $0.takeUndo() }
        guard !undo.isEmpty else { return }
        terminal.writeBytes(undo)
        terminal.undoOnExit([])
    }

    public func finish(_ state: ViewState) {
        settings.withLock { $0.log }?.finish(state)
    }

    /// Whether `event` is a line of the session's reading of the stream.
    private static func isLineEvent(_ event: ViewEvent) -> Bool {
        switch event {
        case .exchanged, .notification, .partialReply, .lateReply, .pendingText: true
        default: false
        }
    }

    private static func isConnectionEvent(_ event: ViewEvent) -> Bool {
        switch event {
        case .waiting, .connected, .disconnected, .reconnecting, .reconnected, .missed, .warning, .settingNotApplied,
            .lineControl, .lineEvent:
            true
        case .sent, .received, .exchanged, .notification, .invalidLine, .data, .commandMode, .partialReply, .lateReply,
            .pendingText, .settling, .held:
            false
        }
    }
}
