/// What a ``Session`` reports about the conversation, in order.
///
/// The cases that carry a ``Reply`` or ``SettlingEvidence`` (one per request at most)
/// keep it boxed (`indirect`), so an event is the size of a ``Line`` and the events of
/// a fast stream's lines move through the port loop's arrays as a few words each.
public enum SessionEvent: Sendable, Equatable {
    /// A command was handed to the port (``SessionAction/write(_:)`` precedes it; a
    /// ``Device`` publishes it once the first of those bytes has left):
    /// `command` shown as text (``Request/command``), `bytes` exactly as written before
    /// the dialect's terminator; `isRaw` for a raw write (``Request/isRaw``: no
    /// terminator followed, and no `replied` follows).
    case sent(RequestID, command: String, bytes: [UInt8], isRaw: Bool = false)
    /// A request's reply is complete; `roundTrip` runs from sending to the last byte.
    indirect case replied(RequestID, command: String, reply: Reply, roundTrip: Duration)
    /// Lines of a reply that did not complete (e.g. AT information lines but no final
    /// result code): at a timeout (`.failed` follows; the lines may still complete as
    /// a late reply), at a hang-up (`.failed` follows), or the lines a late reply took
    /// after the timeout when it never completed.
    case partialReply(RequestID, command: String, lines: [Line])
    /// A request ended without a reply.
    case failed(RequestID, command: String, failure: RequestFailure)
    /// A line that answers no pending request: an unsolicited notification, an
    /// overlong piece, or the unterminated tail left at hang-up.
    case notification(Line)
    /// A reply that arrived after its request had timed out. It is never given to a
    /// later request.
    indirect case lateReply(command: String, reply: Reply)
    /// The unterminated bytes after the last line (a progress bar, a prompt), once no
    /// byte has followed for ``Session/pendingTextQuietPeriod``; reported again, whole,
    /// after each further quiet period in which more bytes came. Not a line: the line
    /// they begin is still reported once, as usual, when its terminator comes.
    ///
    /// `line` has ``Line/Ending/unterminated`` and its control sequences removed;
    /// `start` is the offset in the received stream of its first byte (counted from 0
    /// since the session began), which ``Session/consumePendingText(start:count:now:)``
    /// takes to name it.
    case pendingText(Line, start: Int)
    /// Bytes received while the modem is in data mode (after a reply the dialect says
    /// enters it, ``Dialect/entersDataMode(after:)``: `at`'s `CONNECT`): data, not lines.
    case data([UInt8])
    /// The modem is back in command mode: `line` said so (`NO CARRIER`, or `OK` after
    /// the escape `+++`).
    case commandMode(Line)
    /// Replies settle from now on (``Dialect/repliesAreUnmarked``: `line`, `scpi`):
    /// the device showed that it speaks unasked, as `evidence` says. Reported once,
    /// just before the first reply held to settle; not for a dialect told so from the
    /// start (``Dialect/listenPeriod``).
    indirect case settling(SettlingEvidence)
    /// The next command, `command`, waited `duration` for the gate's hold (`reason`, never
    /// ``HoldReason/settling``) before it was sent: what that wait cost is visible.
    case held(HoldReason, for: Duration, before: String)
}

/// What the shell around a ``Session`` must do, in order.
public enum SessionAction: Sendable, Equatable {
    /// Write these bytes to the port; the `sent` event of the request they belong to
    /// follows at once.
    case write([UInt8])
    /// Report this event to observers.
    case emit(SessionEvent)
}
