import FoundationEssentials

/// One entry of the log-style event stream that views render, in order.
public struct ViewRecord: Sendable, Equatable {
    /// When it happened.
    public var time: Date
    /// What happened.
    public var event: ViewEvent

    /// Creates a record.
    public init(time: Date, event: ViewEvent) {
        self.time = time
        self.event = event
    }
}

/// What a view is told, in past tense.
public enum ViewEvent: Sendable, Equatable {
    /// The port does not exist yet and tether waits for it to appear (`--wait`); `port`
    /// is the path as given, or `a port matching '…'` for `--match`.
    case waiting(for: String)
    /// The port opened; `settings` like `115200 8N1`.
    case connected(port: String, settings: String)
    /// Bytes were written: a command (its exact bytes in ``ViewLine/bytes``, no
    /// terminator), a raw write or an immediate one (`kind`).
    case sent(command: ViewLine, kind: SentKind = .command)
    /// Bytes as read from the port, one read's worth, before the records they produced;
    /// only from a device observed with received bytes (the Model's
    /// `Device.events(_:includesBytes:)`). The Presenter hands them to
    /// ``DeviceView/renderReceived(_:bytes:state:)``, which views ignore unless they
    /// show raw bytes (a terminal's raw mode).
    case received([UInt8])
    /// A request finished (reply, timeout or failure).
    case exchanged(Exchange)
    /// An unsolicited line; `readings` are its parsed `name=value` fields.
    case notification(ViewLine, readings: [Reading])
    /// The part of a reply received before its request timed out (a timeout record
    /// follows).
    case partialReply(command: String, lines: [ViewLine])
    /// A reply that came after its request had timed out (never given to a later one);
    /// `isInDoubt` when it may be an earlier request's (the Model's `Reply.isInDoubt`).
    case lateReply(command: String, lines: [ViewLine], isInDoubt: Bool = false)
    /// Replies settle from now on: the device (`line`, `scpi`) showed that it speaks
    /// unasked, as `note` says. docs/DIALECTS.md, "Stray lines".
    case settling(SettlingNote)
    /// `command` waited `duration` before it was sent, for `reason` (the Model's
    /// `HoldReason`: `listen`, `resync`, `readiness`). docs/DIALECTS.md, "When the next
    /// command goes".
    case held(reason: String, duration: Duration, command: String)
    /// The text after the last line that has no line end yet (a progress bar, a
    /// prompt), once the line was quiet (100 ms, the Model's
    /// `Session.pendingTextQuietPeriod`); whole each time. The next `pendingText`
    /// replaces it; the record that follows it otherwise — usually the line it begins,
    /// once its terminator comes — ends it. Progress, not a line: counted nowhere.
    case pendingText(ViewLine)
    /// The device went away.
    case disconnected(port: String, reason: String)
    /// After `disconnected`: tether waits for the port to come back and reopens it.
    case reconnecting(port: String)
    /// The port is open again with the same settings, after `attempts` tries and
    /// `downtime` since the disconnect.
    case reconnected(port: String, settings: String, attempts: Int, downtime: Duration)
    /// This view fell behind and missed `count` events.
    case missed(count: Int)
    /// A received line the dialect found damaged (`nmea`: a wrong or missing checksum),
    /// instead of a notification: never data. `reason` says how.
    case invalidLine(ViewLine, reason: String)
    /// Bytes a modem sent in data mode (after `CONNECT`): data, not lines.
    case data([UInt8])
    /// The modem is back in command mode; `line` said so (`NO CARRIER`, `OK` after `+++`).
    case commandMode(ViewLine)
    /// tether set the port's lines (DTR, RTS, break) or changed its settings.
    case lineControl(LineControlRecord)
    /// The UART reported a line condition (a break, a framing or parity error, an
    /// overrun) or the modem status inputs changed; in order with the lines.
    case lineEvent(LineCondition)
    /// A non-fatal problem worth telling the user.
    case warning(String)
    /// After `connected` or `reconnected`: the port does not have a serial setting as
    /// asked (a warning too, with the setting's name and both values).
    case settingNotApplied(SettingWarning)
}

extension ViewEvent {
    /// How bytes went out (``ViewEvent/sent(command:kind:)``).
    public enum SentKind: String, Sendable, Equatable {
        /// A command: the dialect's terminator followed it.
        case command
        /// A raw write, in turn with the commands: exactly these bytes, no terminator.
        case raw
        /// An immediate write, ahead of everything queued: exactly these bytes.
        case immediate
    }
}
