/// The conversation with one device as a pure state machine: requests in, bytes in,
/// actions out. No I/O and no clock of its own — every call gets `now` — so it can be
/// tested line by line.
///
/// Rules (docs/DIALECTS.md, "Rules every dialect shares", says the same for users):
/// - One request is in flight at a time; the others wait in order (FIFO).
/// - Received bytes are framed into lines (``LineFramer``, with the dialect's
///   ``Dialect/payloadFraming``); terminal control sequences are removed from the text
///   of each line without a payload (``ControlSequences``), the exact bytes stay in
///   ``Line/receivedBytes``. An indefinite-length block (IEEE 488.2 `#0`) ends at a LF
///   followed by ``partialQuietPeriod`` with no byte (``LineFramer/endIndefiniteBlock()``);
///   the bytes of a payload still arriving are neither offered as a prompt nor
///   reported as pending text. Leading line noise the dialect names
///   (``Dialect/leadingNoiseLength(in:)``) is a notification of its own. A line the
///   dialect calls unsolicited is a notification.
/// - Any other line is offered in this order: the oldest timed-out request whose late
///   reply has not begun, when the line is its echo and its echo begins a reply
///   (``ATDialect``), whichever request is in flight — the earlier timed-out requests
///   are then closed; the request in flight, when the line is its echo (the echo of a
///   new command closes whatever earlier, timed-out commands were still owed);
///   timed-out requests whose late reply has begun; the request in
///   flight; other timed-out requests. A line nobody takes is a notification.
/// - **Blank lines** are framing: never a notification, never a reply, never a reason
///   for doubt — the CR LF before `\r\nRING\r\n`, the CR of a LF CR line end, the line
///   end after a prompt (`BlankLineTests`). A matcher may take one (`at`'s message
///   bodies); nobody else does. The bytes stay in the byte events (the transcript).
/// - **Contested line.** When the request in flight has taken nothing yet and the
///   oldest timed-out request would take the line too, the line is held: the next line
///   decides that it was the timed-out request's late reply; the in-flight request's
///   deadline passing first decides that it was the in-flight reply, which is then
///   marked in doubt (``Reply/isInDoubt``) — unless the device, as late as the line
///   says, cannot have answered the command after the timed-out one yet: the request
///   in flight then times out too, and the line waits for that answer, due that much
///   after the command was sent (plus ``resyncQuietPeriod``). It came: the line was the
///   late reply (the device answers in order); it did not, or the device hung up: the
///   line is still that late reply, in doubt.
/// - **After a timeout** the next request is sent once the line has been quiet for
///   ``resyncQuietPeriod`` (counted from the last byte received, or from when the
///   timed-out request was sent) — so a silent device costs one timeout per request —
///   and at most ``resyncLimit`` after the timeout on a line that never goes quiet. Once
///   the device has answered late (a late reply, or a contested line given to the
///   next request), the quiet asked for is twice the timeout, within
///   ``resyncQuietPeriod`` and ``resyncQuietMaximum``, counted from the timeout.
///   A dialect whose device shows it is ready again (``Dialect/readinessWait``: a
///   console's prompt) waits instead, when the timed-out request's reply had begun (its
///   echo, a line), until that request's late reply ends at the prompt, for at most
///   the dialect's wait from the timeout: quiet proves nothing there, as a console
///   busy with a command (`sleep 2`) is silent and discards what is typed.
/// - A timed-out request keeps its matcher until its late reply is complete, a later
///   request's echo or reply closes it, or twice its timeout (within the same bounds)
///   plus ``resyncLimit`` — or the dialect's readiness wait, when longer — has passed;
///   the lines it took after the timeout without completing are then notifications —
///   nothing received is dropped.
/// - **Settling** (dialects with ``Dialect/repliesAreUnmarked``: `line`, `scpi`): from
///   the start with a ``Dialect/listenPeriod`` (a device known to speak unasked), else
///   once the device has shown that it does (``SettlingEvidence``, reported once as
///   ``SessionEvent/settling(_:)``): a line nobody took (a stray: a line with nothing
///   in flight, before the first request too, a notification the patterns do not
///   know), a line begun before the request in flight was sent, a reply equal to the
///   one before it for another command (not an error reply: the same error answers
///   every command the device rejects; nor one with no digit in it, an acknowledgement
///   such as `OK`), or a timed-out request whose late reply never
///   came — each complete reply is held for 1.5 times the longest of the last 32 round
///   trips (within ``settleMinimum`` and ``settleMaximum``) before it is reported and
///   the next request is sent. A line nobody takes during that time marks
///   the reply in doubt (it may have been a stray line, and this the real answer) and
///   is reported after it as a notification; the next request then gets its own reply.
///   Until then, replies are reported and the next request sent as soon as they are
///   complete.
/// - **Unaccounted replies** (unmarked dialects): a timed-out request closed without
///   its late reply (expired, or closed by a later request) leaves that reply
///   unaccounted for — a device that fell behind may still send it, and it would be
///   taken for a later request's. While one is, every reply and late reply is marked
///   in doubt, and a reply is held until no line other than a notification has come
///   for twice the longest the device took to answer (within ``resyncQuietPeriod`` and
///   ``resyncQuietMaximum``); a line nobody takes accounts for one (it was probably
///   that answer) and the quiet starts again. That quiet, held or before a request is
///   sent, accounts for all: the device is in step, and replies are its own again.
///   A line whose first bytes arrived before the request in flight was sent cannot be
///   its reply (`line`, `scpi`): it is offered to timed-out requests only, else it is a
///   stray. One that came while the port had not taken the whole command yet
///   (``awaitWrite(of:)``) and that the request would take is held: a line after it
///   makes it a stray, the deadline (which runs from the end of the write) passing
///   first makes it the reply — a device may answer before the write is done.
/// - **Unasked lines** (`line`, `scpi`): the shapes of strays seen while no request was
///   in flight or settling, and of lines begun before the request in flight, are
///   learned (``UnaskedLines``); a line of a learned shape is a notification, never a
///   reply. A dialect with a ``Dialect/listenPeriod`` listens that long before its
///   first request (``releaseRequests(now:)``).
/// - The unterminated bytes after the last line (a console prompt such as `=> `) are
///   offered with ``ReplyMatcher/offerPartial(_:isQuiet:)``, control sequences removed:
///   to timed-out requests whose late reply has begun, then to the request in flight —
///   when they arrive, and again once no byte has followed for ``partialQuietPeriod``.
/// - **Pending text.** Once no byte has come for ``pendingTextQuietPeriod``, the
///   unterminated bytes still there (not taken as a prompt) are reported as
///   ``SessionEvent/pendingText(_:start:)`` — after each quiet period in which more came,
///   never per byte; the line they begin is still reported once when it ends. A reader
///   that matched a prompt in them may consume them
///   (``consumePendingText(start:count:now:)``): the line then starts after what it
///   took, and a request in flight sent before the text began is over — the console
///   printed its prompt — with the lines it took so far as its reply.
/// - A matcher may ask for a follow-up command (``MatchStep/ask(_:soFar:)``, e.g. SCPI
///   `SYST:ERR?`): it is written at once, within the same request and timeout. It may
///   answer a prompt with bytes written as they are (``MatchStep/write(_:)``,
///   ``ReplyMatcher/answer(toPrompt:isQuiet:)``: `at`'s SMS text at `> `), within the same
///   request and timeout; a timed-out request writes nothing.
/// - Overlong pieces, the terminated tail of an overlong line and the unterminated
///   tail at hang-up are notifications, never replies.
/// - **Data mode** (``Dialect/entersDataMode(after:)``: `at`'s `CONNECT`): once that
///   reply is complete every byte received is data (``SessionEvent/data(_:)``), not
///   lines, until `NO CARRIER`, or an `OK` line after the host wrote the escape `+++`
///   (``noteWrite(_:)``): ``SessionEvent/commandMode(_:)``, and lines again — that `OK`
///   is a line too (a script expects it). Bytes that may begin that code are held back
///   until more come or ``partialQuietPeriod`` passes. Requests other than raw writes
///   wait in the queue meanwhile (they would be data), each until its timeout
///   (``DataMode/deadline(of:)``).
/// - After ``hangUp(reason:now:)`` every pending and queued request fails and new
///   ones fail at once.
public struct Session: Sendable {
    /// The quiet time after a timeout before the next request is sent.
    public var resyncQuietPeriod: Duration = .milliseconds(250)
    /// The longest quiet time asked for after a timeout once the device answered late.
    public var resyncQuietMaximum: Duration = .seconds(3)
    /// How much longer than the quiet time the wait may last on a busy line.
    public var resyncLimit: Duration = .seconds(1)
    /// The shortest time a reply is held to settle (``Dialect/repliesAreUnmarked``).
    public var settleMinimum: Duration = .milliseconds(2)
    /// The longest time a reply is held to settle.
    public var settleMaximum: Duration = .seconds(1)
    /// How long the unterminated bytes must stay unchanged to be offered as quiet (a
    /// prompt after other text, ``PromptDialect``).
    public var partialQuietPeriod: Duration = .milliseconds(50)
    /// How long the session listens, counted from the evidence, before the next request
    /// once a device not known to speak unasked has shown that it does
    /// (``SettlingEvidence``), so that what it says unasked is learned (``UnaskedLines``)
    /// before more replies are waited for. A request queued that long after the
    /// evidence is not held.
    public var evidenceListenPeriod: Duration = .milliseconds(150)
    /// The quiet time after which the unterminated bytes are reported as pending text
    /// (``SessionEvent/pendingText(_:start:)``): 100 ms, long enough that a device
    /// writing a line in several pieces (a UART FIFO, a USB packet each) is not cut
    /// into pending reports, short enough that a progress dot or a prompt shows at once
    /// to a person.
    public static let pendingTextQuietPeriod = Duration.milliseconds(100)
    /// The quiet time in force (``pendingTextQuietPeriod`` unless a test changes it).
    public var pendingTextQuiet = Session.pendingTextQuietPeriod

    /// The dialect in use.
    public let dialect: any Dialect
    /// The dialect's ``Dialect/repliesAreUnmarked``, read once: every line asks it.
    private let repliesAreUnmarked: Bool
    private var framer: LineFramer
    private var nextID = 1
    private var queue: [Request] = []
    private var inFlight: InFlight?
    private var owed: [Owed] = []
    private var contested: Contested?
    private var wait: Wait?
    private var held: Held?
    private var answersLate = false
    /// Whether the device showed that it speaks unasked, so replies of unmarked
    /// dialects settle.
    private var settlesReplies = false
    /// What showed it, reported before the first reply held (``SessionEvent/settling(_:)``).
    private var unreportedEvidence: SettlingEvidence?
    /// When the listen once the device has shown that it speaks unasked
    /// (``evidenceListenPeriod``) ends, while it is still to come.
    private var evidenceListenEnd: ContinuousClock.Instant?
    /// Timed-out requests whose late reply never came (unmarked dialects): the device
    /// may still send them, so replies are in doubt until the line shows it is in step.
    private var unaccountedReplies = 0
    /// When the last of those was counted.
    private var unaccountedSince: ContinuousClock.Instant?
    /// The longest the device took to answer: round trips and late replies.
    private var longestAnswer: Duration = .zero
    /// When the last line came that no pattern or learned shape calls a notification.
    private var lastReplyLineAt: ContinuousClock.Instant?
    /// The lines of the last reply (unmarked dialects), to recognise a repeat.
    private var lastReply: (command: String, lines: [Line]) = ("", [])
    /// Whether the line being framed began before the request in flight was sent.
    private var partialPrecedesRequest = false
    private var lastByteAt: ContinuousClock.Instant?
    /// Whether the unterminated bytes were offered as quiet since the last byte.
    private var offeredQuietPartial = false
    /// Whether the unterminated bytes were reported as pending text since the last byte.
    private var reportedPendingText = false
    /// Every byte received so far, counted (pending text is named by its offset).
    private var receivedCount = 0
    /// Whether the port is not being read now (``noteReading(_:now:)``).
    private var isUnread = false
    /// When reading the port resumed: the quiet before pending text is reported counts
    /// from the later of this and the last byte.
    private var readingResumedAt: ContinuousClock.Instant?
    private var recentRoundTrips: [Duration] = []
    private var closedReason: String?
    private var isHoldingRequests = false
    /// Whether the last line was an overlong piece, so the next one is its tail.
    private var continuesOverlongLine = false
    /// What is still due of the prompt last taken from the unterminated bytes
    /// (``ReplyMatcher/restOfPrompt(after:)``): dropped where the next bytes begin with it.
    private var restOfPrompt: [UInt8] = []
    /// What the device says unasked (unmarked dialects): lines of those shapes are no
    /// replies.
    private var unasked = UnaskedLines()
    /// The modem's data state (``Dialect/entersDataMode(after:)``), or `nil` in command mode.
    private var dataMode: DataMode?
    /// The code that ended data mode, reported already: its line is dropped when it ends.
    private var endOfDataMode: [UInt8]?
    /// Whether the next request sent is the first after the input waiting at open
    /// (``releaseRequests(endingWaitingText:now:)``).
    private var endsWaitingText = false
    /// How many bytes of the line being framed were there when that request went out.
    private var waitingPrefix: Int?

    private struct InFlight {
        var request: Request
        var matcher: any ReplyMatcher
        var sentAt: ContinuousClock.Instant
        var deadline: ContinuousClock.Instant?
        /// The bytes received before it was sent (``Session/receivedCount``).
        var receivedBefore = 0
        /// The port has not taken all its bytes yet: no deadline runs
        /// (``Session/awaitWrite(of:)``).
        var awaitsWrite = false
        /// The port took its command's last byte (``Session/writeCompleted(of:reachedAt:)``).
        var isWritten = false
    }

    private struct Owed {
        var command: String
        var matcher: any ReplyMatcher
        var linesAtTimeout: Int
        var expiresAt: ContinuousClock.Instant
        var sentAt: ContinuousClock.Instant
    }

    /// A line the request in flight and the oldest timed-out request would both take,
    /// or one that came while the port had not taken the command in flight whole, held
    /// until the next line decides whose it is.
    private struct Contested {
        var line: Line
        /// When it came.
        var at: ContinuousClock.Instant
        /// It came during the write (``Session/offerDuringWrite(_:now:)``): the next line
        /// decides it was a stray, the deadline that it was the reply.
        var cameDuringWrite = false
        /// Set once the request in flight timed out too, the device looking as late as
        /// the line says (``Session/nextAnswerDue(after:)``): when the next line, due by
        /// then, has not come, and the line is the oldest timed-out request's, in doubt.
        var decidesAt: ContinuousClock.Instant?
    }

    /// A pause before the next request is sent.
    private struct Wait {
        /// Counted from the later of this and the last byte (after a timeout), or from
        /// this alone (settling).
        var from: ContinuousClock.Instant
        var quiet: Duration
        var limit: ContinuousClock.Instant
        var extendsOnBytes: Bool
        /// Ends early when a timed-out request's late reply ends at a prompt
        /// (``Dialect/readinessWait``).
        var endsAtPrompt = false
        /// The listen before the first request (``Dialect/listenPeriod``).
        var isListen = false
    }

    /// A complete reply held while it settles, and what was reported meanwhile.
    private struct Held {
        var id: RequestID
        var command: String
        var reply: Reply
        var roundTrip: Duration
        var events: [SessionEvent] = []
        /// Held for ``Session/resyncQuiet`` because replies were unaccounted for.
        var resyncs = false
        /// What showed that the device speaks unasked, reported before the reply.
        var evidence: SettlingEvidence?
    }

    /// Creates a session speaking `dialect`.
    ///
    /// - Parameter maximumLineLength: the longest line kept whole, in bytes.
    public init(dialect: any Dialect, maximumLineLength: Int = LineFramer.defaultMaximumLineLength) {
        self.dialect = dialect
        self.repliesAreUnmarked = dialect.repliesAreUnmarked
        self.framer = LineFramer(maximumLineLength: maximumLineLength, payloadFraming: dialect.payloadFraming)
        self.settlesReplies = dialect.repliesAreUnmarked && dialect.listenPeriod != nil
    }

    /// Whether a request is in flight, queued or its reply is settling.
    var isBusy: Bool { inFlight != nil || !queue.isEmpty || held != nil }

    /// When ``expire(now:)`` next has work: the in-flight request's deadline, the end of
    /// a wait before the next request or of a settling reply, or a timed-out request's
    /// expiry; `nil` when there is nothing to time.
    public var nextDeadline: ContinuousClock.Instant? {
        // A timed-out request waits for the contested line's decision before it expires.
        var candidates = contested?.decidesAt == nil ? owed.map(\.expiresAt) : []
        if let decidesAt = contested?.decidesAt { candidates.append(decidesAt) }
        if let deadline = inFlight?.deadline { candidates.append(deadline) }
        if let quietAt = quietPartialAt { candidates.append(quietAt) }
        if let pendingAt = pendingTextAt { candidates.append(pendingAt) }
        if let blockEnd = indefiniteBlockEndAt { candidates.append(blockEnd) }
        if let heldData = heldDataAt { candidates.append(heldData) }
        if let dataMode { candidates += queue.compactMap(dataMode.deadline(of:)) }
        if inFlight == nil, !queue.isEmpty && !isHoldingRequests || held != nil, let end = waitEnd {
            candidates.append(end)
        }
        return candidates.min()
    }

    /// Queues `command` (its UTF-8 bytes), as ``enqueue(bytes:timeout:isRaw:closingReason:now:)`` does.
    public mutating func enqueue(
        _ command: String, timeout: Duration?, closingReason: String? = nil, now: ContinuousClock.Instant
    ) -> (RequestID, [SessionAction]) {
        enqueue(bytes: Array(command.utf8), timeout: timeout, closingReason: closingReason, now: now)
    }

    /// Queues the command whose exact bytes (no terminator) are `bytes`; it is sent
    /// when the requests before it are done.
    ///
    /// - Parameters:
    ///   - isRaw: a raw write: `bytes` are written alone (no terminator), no reply is
    ///     expected, and only `sent` is reported — the request is done once written.
    ///   - closingReason: the device is being closed for this reason: the request
    ///     fails at once, not sent, as after ``hangUp(reason:isAskedFor:now:)``.
    /// - Returns: the request's identity and the actions to perform now.
    public mutating func enqueue(
        bytes: [UInt8], timeout: Duration?, isRaw: Bool = false, closingReason: String? = nil,
        now: ContinuousClock.Instant
    ) -> (RequestID, [SessionAction]) {
        let command = String(decoding: bytes, as: UTF8.self)
        let request = Request(
            id: RequestID(value: nextID), command: command, bytes: bytes, isRaw: isRaw, timeout: timeout,
            queuedAt: now)
        nextID += 1
        if let reason = closedReason ?? closingReason {
            let failure = RequestFailure.notSent(reason: reason)
            return (request.id, [.emit(.failed(request.id, command: command, failure: failure))])
        }
        queue.append(request)
        return (request.id, sendNext(now: now))
    }

    /// Keeps requests in the queue, unsent, until ``releaseRequests(now:)``: while the
    /// input that was waiting when the port opened (a boot banner, an answer another
    /// program left unread) is taken in, so it becomes notifications and never the
    /// reply to the first command.
    public mutating func holdRequests() {
        isHoldingRequests = true
    }

    /// Ends the listen before the first request (``Dialect/listenPeriod``) now, sending what is
    /// queued: a transfer that begins now must find the lines typed before it written
    /// (a shell's `rb` that starts the receiver), not held until it ends.
    ///
    /// - Returns: the actions to perform now (none when not listening).
    public mutating func endListening(now: ContinuousClock.Instant) -> [SessionAction] {
        guard wait?.isListen == true else { return [] }
        wait?.quiet = .zero
        wait?.limit = now
        return sendNext(now: now)
    }

    /// Ends ``holdRequests()``: the first queued request is sent — for a dialect with a
    /// ``Dialect/listenPeriod`` (a device known to speak unasked) or an
    /// ``Dialect/openingListen`` (`line` told nothing), once it has listened that long,
    /// so that what the device says unasked is learned before the first reply is waited
    /// for.
    ///
    /// - Parameter endingWaitingText: the input waiting at open has been taken in. Text
    ///   after its last line end still there when the first request goes out (what
    ///   another program left unread: `…sion`; a prompt no reader consumed) is not
    ///   glued to that command's echo: when the line it begins is the echo only without
    ///   that text (`sionsleep 2`), the text is a notification of its own and the rest
    ///   is the echo. Otherwise the line stays whole (a line that was still arriving).
    /// - Returns: the actions to perform now.
    public mutating func releaseRequests(endingWaitingText: Bool = false, now: ContinuousClock.Instant)
        -> [SessionAction]
    {
        isHoldingRequests = false
        if repliesAreUnmarked, let listenPeriod = dialect.listenPeriod ?? dialect.openingListen,
            listenPeriod > .zero, wait == nil
        {
            wait = Wait(
                from: now, quiet: listenPeriod, limit: now + listenPeriod, extendsOnBytes: false, isListen: true)
        }
        endsWaitingText = endingWaitingText
        return sendNext(now: now)
    }

    /// Cancels request `id`: a queued request leaves the queue; the request in flight
    /// is treated as timed out (its late reply is owed, and the next request waits for
    /// the line to go quiet, as after a timeout). Either way it fails with
    /// ``RequestFailure/cancelled``. A request that has already ended is left alone.
    ///
    /// - Returns: the actions to perform now.
    public mutating func cancel(_ id: RequestID, now: ContinuousClock.Instant) -> [SessionAction] {
        if let index = queue.firstIndex(where: { $0.id == id }) {
            let request = queue.remove(at: index)
            return [.emit(.failed(id, command: request.command, failure: .cancelled))]
        }
        guard let flight = inFlight, flight.request.id == id else { return [] }
        if let line = contestedByInFlight {
            contested = nil
            return report([.emit(.notification(line))] + giveUp(flight, failure: .cancelled, now: now))
                + sendNext(now: now)
        }
        return report(giveUp(flight, failure: .cancelled, now: now)) + sendNext(now: now)
    }

    /// `bytes` without the part of ``restOfPrompt`` they begin with; what is due of it
    /// after them stays due (nothing, once a byte differs).
    private mutating func dropRestOfPrompt(from bytes: [UInt8]) -> [UInt8] {
        let common = zip(restOfPrompt, bytes).prefix { $0 == $1 }.count
        restOfPrompt = common == bytes.count ? Array(restOfPrompt.dropFirst(common)) : []
        return Array(bytes.dropFirst(common))
    }

    /// Consumes bytes read from the port.
    public mutating func receive(_ received: [UInt8], now: ContinuousClock.Instant) -> [SessionAction] {
        guard closedReason == nil else { return [] }
        if !received.isEmpty {
            lastByteAt = now
            offeredQuietPartial = false
            reportedPendingText = false
            receivedCount += received.count
        }
        let bytes = restOfPrompt.isEmpty || received.isEmpty ? received : dropRestOfPrompt(from: received)
        if dataMode != nil { return receiveData(bytes, now: now) + sendNext(now: now) }
        var actions: [SessionAction] = []
        let lines = framer.append(bytes)
        actions.reserveCapacity(lines.count)
        for (index, line) in lines.enumerated() {
            route(line, now: now, into: &actions)
            if dataMode != nil {
                // The bytes after the reply that entered data mode are data, not lines.
                let rest = lines[(index + 1)...].flatMap { $0.receivedBytes + ($0.terminator?.bytes ?? []) }
                return actions + receiveData(rest + framer.takePartial(), now: now) + sendNext(now: now)
            }
        }
        actions += offerPartial(isQuiet: false, now: now)
        actions += sendNext(now: now)
        return actions
    }

    /// The host wrote `bytes` outside any request (``Device/writeNow(_:)``, a raw
    /// write): in data mode, the escape `+++` makes the module's `OK` end it.
    public mutating func noteWrite(_ bytes: [UInt8]) {
        if bytes == DataMode.escape { dataMode?.escapeSent = true }
    }

    /// Bytes received in data mode: data, until the code that ends it; what follows
    /// that code is lines again.
    private mutating func receiveData(_ bytes: [UInt8], now: ContinuousClock.Instant) -> [SessionAction] {
        guard var mode = dataMode else { return [] }
        let (data, end) = mode.take(bytes)
        dataMode = mode
        var actions: [SessionAction] = data.isEmpty ? [] : [.emit(.data(data))]
        guard let end else { return report(actions) }
        dataMode = nil
        let code = end.prefix { $0 != 0x0D && $0 != 0x0A }
        actions.append(.emit(.commandMode(Line(Array(code)))))
        if !DataMode.isReadAsLine(code) { endOfDataMode = Array(code) }
        for line in framer.append(end) { route(line, now: now, into: &actions) }
        return report(actions)
    }

    /// When the bytes data mode holds back are data after all (the line went quiet), or `nil`.
    private var heldDataAt: ContinuousClock.Instant? {
        guard let dataMode, !dataMode.held.isEmpty, let lastByteAt else { return nil }
        return lastByteAt + partialQuietPeriod
    }

    /// Times out the request in flight if its deadline has passed, ends waits that are
    /// over and sends the next request.
    public mutating func expire(now: ContinuousClock.Instant) -> [SessionAction] {
        var actions: [SessionAction] = []
        if let heldData = heldDataAt, heldData <= now, let data = dataMode?.flush() {
            actions.append(.emit(.data(data)))
        }
        if let dataMode { actions += dataMode.failExpired(in: &queue, now: now) }
        if let blockEnd = indefiniteBlockEndAt, blockEnd <= now, let block = framer.endIndefiniteBlock() {
            route(block, now: now, into: &actions)
        }
        if let quietAt = quietPartialAt, quietAt <= now {
            offeredQuietPartial = true
            actions += offerPartial(isQuiet: true, now: now)
        }
        if let pendingAt = pendingTextAt, pendingAt <= now {
            reportedPendingText = true
            let line = ControlSequences.cleaned(Line(framer.partial, ending: .unterminated))
            actions.append(.emit(.pendingText(line, start: pendingStart)))
        }
        if let decidesAt = contested?.decidesAt, decidesAt <= now, let line = contested?.line {
            contested = nil
            actions += offerContested(line, isInDoubt: true)
        }
        for index in owed.indices.reversed() where contested?.decidesAt == nil && owed[index].expiresAt <= now {
            actions += close(owedAt: index, now: now)
        }
        if let flight = inFlight, let deadline = flight.deadline, deadline <= now {
            if let held = contested, held.decidesAt == nil {
                actions += giveContested(held, now: now)
            } else {
                actions += giveUp(flight, failure: .timedOut(flight.request.timeout ?? .zero), now: now)
            }
        }
        return report(actions) + sendNext(now: now)
    }

    /// Says whether the port is being read: it is not while an observer is behind
    /// (``EventDelivery/lossless``), and bytes may then wait unread, so no quiet is
    /// counted towards pending text until reading resumes, and the quiet counts from
    /// then. Without this a stalled reader would look like a quiet line and cut a fast
    /// stream's line into a pending report. Cheap enough to call before every `poll`.
    public mutating func noteReading(_ isReading: Bool, now: ContinuousClock.Instant) {
        guard isReading == isUnread else { return }
        isUnread = !isReading
        if isReading { readingResumedAt = now }
    }

    /// Removes the first `count` bytes of the pending text that starts at `start` (as
    /// ``SessionEvent/pendingText(_:start:)`` named it), because a reader consumed them:
    /// a script's `expect` matched a prompt in them. The line they began then starts
    /// after them, so the old prompt is never part of what follows, and a request sent
    /// now no longer counts them as a line begun before it.
    ///
    /// A request in flight that was sent before the text began is over: the console
    /// printed its prompt. Its reply is the lines it took so far (often none: a login
    /// prompt's `root` has only its echo, which is dropped), reported at once (or
    /// settled, ``Dialect/repliesAreUnmarked``), and the next request is sent.
    ///
    /// - Parameters:
    ///   - start: the pending text's `start`.
    ///   - count: how many bytes of its text (control sequences removed) were consumed;
    ///     control sequences among them go too.
    /// - Returns: the actions to perform now; `nil`, changing nothing, when those bytes
    ///   are no longer pending (their line ended, or the device hung up) or are fewer
    ///   than `count`.
    public mutating func consumePendingText(start: Int, count: Int, now: ContinuousClock.Instant)
        -> [SessionAction]?
    {
        guard count > 0, closedReason == nil, start == pendingStart,
            let length = ControlSequences.length(ofPrefixKeeping: count, in: framer.partial)
        else { return nil }
        framer.removePartialPrefix(length)
        waitingPrefix = nil
        guard let flight = inFlight, flight.receivedBefore <= start, contested == nil else { return [] }
        // Its round trip ends at the prompt's last byte, not now: the reader matched it
        // only after the pending-text quiet, which says nothing of the device's speed
        // (and would stretch every later settling reply by 1.5 times that quiet).
        let answeredAt = max(flight.sentAt, lastByteAt ?? now)
        return report(complete(flight, with: Reply(lines: flight.matcher.linesSoFar), now: now, answeredAt: answeredAt))
            + sendNext(now: now)
    }

    /// Consumes the whole pending text when it was reported and nothing came since — a
    /// person typed a command at the prompt shown to them (`connect`) — as
    /// ``consumePendingText(start:count:now:)`` does.
    ///
    /// - Returns: the actions to perform now; none when there was no such text.
    public mutating func consumeShownPendingText(now: ContinuousClock.Instant) -> [SessionAction] {
        guard reportedPendingText, !framer.partial.isEmpty else { return [] }
        let count = ControlSequences.cleaned(Line(framer.partial, ending: .unterminated)).bytes.count
        return consumePendingText(start: pendingStart, count: count, now: now) ?? []
    }

    /// The device is gone: reports a settling reply, the lines the request in flight
    /// took (as a partial reply) and the unterminated tail, fails the request in flight
    /// and every queued one, and refuses new ones. `isAskedFor`: the caller ended the
    /// device (the request in flight is ``RequestFailure/stopped(reason:)``, not
    /// ``RequestFailure/disconnected(reason:)``).
    public mutating func hangUp(reason: String, isAskedFor: Bool = false, now: ContinuousClock.Instant)
        -> [SessionAction]
    {
        guard closedReason == nil else { return [] }
        closedReason = reason
        var actions = release(now: now)
        if let data = dataMode?.flush(), !data.isEmpty { actions.append(.emit(.data(data))) }
        if let held = contested {
            // No line after it decides: by order, the oldest timed-out request's, in doubt.
            contested = nil
            actions +=
                held.cameDuringWrite ? [.emit(.notification(held.line))] : offerContested(held.line, isInDoubt: true)
        }
        for index in owed.indices.reversed() { actions += close(owedAt: index, now: now) }
        if let flight = inFlight, case let soFar = flight.matcher.linesSoFar, !soFar.isEmpty {
            actions.append(.emit(.partialReply(flight.request.id, command: flight.request.command, lines: soFar)))
        }
        if let tail = framer.finish() { actions.append(.emit(.notification(ControlSequences.cleaned(tail)))) }
        if let flight = inFlight {
            actions.append(
                .emit(
                    .failed(
                        flight.request.id, command: flight.request.command,
                        failure: isAskedFor ? .stopped(reason: reason) : .disconnected(reason: reason)))
            )
            inFlight = nil
        }
        for request in queue {
            actions.append(.emit(.failed(request.id, command: request.command, failure: .notSent(reason: reason))))
        }
        queue.removeAll()
        return actions
    }

    // MARK: - Writes the port has not finished

    /// The timeout of request `id` while it is in flight (its write's margin follows
    /// it, ``WriteDeadline``); `nil` when it has none or is not in flight.
    public func timeout(ofInFlight id: RequestID) -> Duration? {
        guard let flight = inFlight, flight.request.id == id else { return nil }
        return flight.request.timeout
    }

    /// The port has not taken every byte of request `id`'s command yet: its reply
    /// deadline is held until it has (``writeCompleted(of:reachedAt:)``), so a long command
    /// on a slow line is not timed out while it is still being written.
    public mutating func awaitWrite(of id: RequestID) {
        guard inFlight?.request.id == id else { return }
        inFlight?.awaitsWrite = true
        inFlight?.deadline = nil
    }

    /// The port took the last byte of request `id`'s command, which reaches the device
    /// by `reachedAt` (its bytes' time on the wire after the write began, when that is
    /// later than the end of the write: the driver's buffer still holds them): the
    /// reply deadline runs from then. Only the command's own write counts, not a
    /// follow-up's (``MatchStep/ask(_:soFar:)``).
    public mutating func writeCompleted(of id: RequestID, reachedAt: ContinuousClock.Instant) {
        guard let flight = inFlight, flight.request.id == id, !flight.isWritten else { return }
        inFlight?.isWritten = true
        inFlight?.awaitsWrite = false
        guard let timeout = flight.request.timeout else { return }
        inFlight?.deadline = max(flight.deadline ?? reachedAt, reachedAt + timeout)
    }

    /// The port did not take every byte of request `id` within its write's deadline
    /// (``WriteDeadline``): the request fails with `failure`
    /// (``RequestFailure/notAllSent(reason:)`` or ``RequestFailure/notSent(reason:)``).
    /// When part of the command left (`isPartlyWritten`) the device may still answer
    /// it, so it is treated as timed out (its late reply owed, the next request sent
    /// once the line is quiet); when none did, the next request is sent at once. A
    /// request no longer in flight (a raw write, a command that expects no reply)
    /// fails all the same, with `command` shown.
    ///
    /// - Returns: the actions to perform now.
    public mutating func writeFailed(
        of id: RequestID, command: String, failure: RequestFailure, isPartlyWritten: Bool,
        now: ContinuousClock.Instant
    ) -> [SessionAction] {
        guard closedReason == nil else { return [] }
        guard let flight = inFlight, flight.request.id == id else {
            return report([.emit(.failed(id, command: command, failure: failure))]) + sendNext(now: now)
        }
        var actions: [SessionAction] = []
        if let line = contestedByInFlight {
            contested = nil
            actions.append(.emit(.notification(line)))
        }
        if isPartlyWritten {
            actions += giveUp(flight, failure: failure, now: now)
        } else {
            inFlight = nil
            actions.append(.emit(.failed(id, command: flight.request.command, failure: failure)))
        }
        return report(actions) + sendNext(now: now)
    }

    // MARK: - Sending and waiting

    /// When the indefinite-length block whose LF came last ends, or `nil`.
    private var indefiniteBlockEndAt: ContinuousClock.Instant? {
        guard framer.awaitsEndOfIndefiniteBlock, let lastByteAt else { return nil }
        return lastByteAt + partialQuietPeriod
    }

    /// When the unterminated bytes are to be offered as quiet, or `nil`.
    private var quietPartialAt: ContinuousClock.Instant? {
        guard !offeredQuietPartial, !framer.partial.isEmpty, !framer.isInPayload, let lastByteAt,
            inFlight != nil || owed.contains(where: { $0.matcher.hasStarted })
        else { return nil }
        return lastByteAt + partialQuietPeriod
    }

    /// When the unterminated bytes are to be reported as pending text, or `nil`.
    private var pendingTextAt: ContinuousClock.Instant? {
        guard !reportedPendingText, !isUnread, !framer.partial.isEmpty, !framer.isInPayload, let lastByteAt else {
            return nil
        }
        return max(lastByteAt, readingResumedAt ?? lastByteAt) + pendingTextQuiet
    }

    /// The offset in the received stream of the first unterminated byte.
    private var pendingStart: Int { receivedCount - framer.partial.count }

    /// When the current wait is over, or `nil` when there is none.
    private var waitEnd: ContinuousClock.Instant? {
        guard let wait else { return nil }
        if wait.extendsOnBytes {
            return min(max(wait.from, lastByteAt ?? wait.from) + wait.quiet, wait.limit)
        }
        let end = wait.from + wait.quiet
        return framer.partial.isEmpty ? end : max(end, wait.limit)
    }

    private mutating func sendNext(now: ContinuousClock.Instant) -> [SessionAction] {
        var actions: [SessionAction] = []
        if inFlight == nil, let end = waitEnd {
            guard now >= end else { return [] }
            wait = nil
            actions += release(now: now)
        }
        if let end = evidenceListenEnd, inFlight == nil, wait == nil, !queue.isEmpty, !isHoldingRequests,
            dataMode == nil
        {
            evidenceListenEnd = nil
            if now < end {
                wait = Wait(from: now, quiet: end - now, limit: end, extendsOnBytes: false, isListen: true)
                return actions
            }
        }
        while inFlight == nil, wait == nil, !queue.isEmpty, !isHoldingRequests, dataMode == nil || queue[0].isRaw {
            if endsWaitingText {
                endsWaitingText = false
                if !framer.partial.isEmpty, !framer.isInPayload { waitingPrefix = framer.partial.count }
            }
            let request = queue.removeFirst()
            if request.isRaw { noteWrite(request.bytes) }
            let sent = SessionEvent.sent(
                request.id, command: request.command, bytes: request.bytes, isRaw: request.isRaw)
            // A raw write is done once written: no reply, and no line is its.
            actions.append(.write(request.isRaw ? request.bytes : dialect.encode(request.bytes)))
            actions.append(.emit(sent))
            if request.isRaw { continue }
            partialPrecedesRequest = repliesAreUnmarked && !framer.partial.isEmpty
            unasked.requestSent()
            forgetUnaccountedIfQuiet(now: now)
            if dialect.expectsReply(to: request.command) {
                inFlight = InFlight(
                    request: request, matcher: dialect.makeMatcher(for: request.command, bytes: request.bytes),
                    sentAt: now,
                    deadline: request.timeout.map { now + $0 }, receivedBefore: receivedCount)
            } else {
                actions.append(
                    .emit(.replied(request.id, command: request.command, reply: Reply(lines: []), roundTrip: .zero)))
            }
        }
        return actions
    }

    /// Ends the request in flight without its reply (timed out or cancelled): reports
    /// what it received so far, fails it with `failure`, keeps its matcher for the late
    /// reply, and starts the wait before the next request.
    private mutating func giveUp(
        _ flight: InFlight, failure: RequestFailure, now: ContinuousClock.Instant
    ) -> [SessionAction] {
        inFlight = nil
        unasked.requestGotNoReply()
        var actions: [SessionAction] = []
        let timeout = flight.request.timeout ?? resyncQuietPeriod
        let soFar = flight.matcher.linesSoFar
        if !soFar.isEmpty {
            actions.append(.emit(.partialReply(flight.request.id, command: flight.request.command, lines: soFar)))
        }
        actions.append(.emit(.failed(flight.request.id, command: flight.request.command, failure: failure)))
        var expiresAt = lateWait(after: timeout, now: now).limit
        if let readiness = dialect.readinessWait, flight.matcher.hasStarted {
            // The device is busy with the command; what is sent before its prompt may be lost.
            wait = Wait(from: now, quiet: readiness, limit: now + readiness, extendsOnBytes: false, endsAtPrompt: true)
            expiresAt = max(expiresAt, now + readiness)
        } else {
            wait =
                answersLate
                ? lateWait(after: timeout, now: now)
                : Wait(
                    from: flight.sentAt, quiet: resyncQuietPeriod, limit: now + resyncQuietPeriod + resyncLimit,
                    extendsOnBytes: true)
        }
        owed.append(
            Owed(
                command: flight.request.command, matcher: flight.matcher, linesAtTimeout: soFar.count,
                expiresAt: expiresAt, sentAt: flight.sentAt))
        return actions
    }

    /// The wait after a timeout once the device has answered late: quiet for twice the
    /// timeout (within ``resyncQuietPeriod`` and ``resyncQuietMaximum``) from now.
    private func lateWait(after timeout: Duration, now: ContinuousClock.Instant) -> Wait {
        let quiet = min(max(resyncQuietPeriod, timeout * 2), resyncQuietMaximum)
        return Wait(from: now, quiet: quiet, limit: now + quiet + resyncLimit, extendsOnBytes: true)
    }

    /// Completes the request in flight with `reply`: held to settle when the dialect's
    /// replies are unmarked, reported at once otherwise. The round trip runs to
    /// `answeredAt` (default: `now`), the last byte of the reply.
    private mutating func complete(
        _ flight: InFlight, with reply: Reply, now: ContinuousClock.Instant, answeredAt: ContinuousClock.Instant? = nil
    ) -> [SessionAction] {
        inFlight = nil
        let roundTrip = (answeredAt ?? now) - flight.sentAt
        var actions: [SessionAction] = []
        for index in owed.indices.reversed() where !owed[index].matcher.hasStarted {
            actions += close(owedAt: index, now: now)
        }
        var reply = reply
        // A late reply that never came may be this one: in doubt, and held until the
        // line has been quiet long enough to show that the device is in step.
        let resyncs = repliesAreUnmarked && unaccountedReplies > 0
        if resyncs { reply.isInDoubt = true }
        longestAnswer = max(longestAnswer, roundTrip)
        recentRoundTrips.append(roundTrip)
        if recentRoundTrips.count > 32 { recentRoundTrips.removeFirst() }
        if dialect.entersDataMode(after: reply) { dataMode = DataMode(began: now) }
        if repliesAreUnmarked {
            // The same answer to another command is a repeat; the same answer to the
            // same command (a steady reading) is not, nor the same error to two
            // commands (a device answers each command it rejects with its error:
            // `ERR -113` to two unknown ones), nor the same acknowledgement, a reply
            // with no digit in it (`OK` to two set commands): only a reading repeats.
            let command = flight.request.command
            if reply.lines == lastReply.lines, command != lastReply.command, !reply.isError,
                reply.lines.contains(where: { $0.bytes.contains { (0x30...0x39).contains($0) } })
            {
                startSettling(SettlingEvidence(.repeatedReply, line: reply.lines[0], command: command), now: now)
            }
            lastReply = (command, reply.lines)
        }
        guard repliesAreUnmarked, settlesReplies else {
            let event = SessionEvent.replied(
                flight.request.id, command: flight.request.command, reply: reply, roundTrip: roundTrip)
            return [.emit(event)] + actions
        }
        let settle =
            resyncs
            ? resyncQuiet : min(max(settleMinimum, (recentRoundTrips.max() ?? .zero) * 3 / 2), settleMaximum)
        held = Held(
            id: flight.request.id, command: flight.request.command, reply: reply, roundTrip: roundTrip,
            resyncs: resyncs, evidence: unreportedEvidence)
        unreportedEvidence = nil
        wait = Wait(from: now, quiet: settle, limit: now + settle * 2, extendsOnBytes: false)
        return actions
    }

    /// The device showed that it speaks unasked: replies settle from now on
    /// (unmarked dialects), and `evidence` is reported before the first one held.
    private mutating func startSettling(_ evidence: SettlingEvidence, now: ContinuousClock.Instant) {
        guard !settlesReplies else { return }
        settlesReplies = true
        guard repliesAreUnmarked else { return }
        unreportedEvidence = evidence
        // A listen teaches only what the device says unasked: not after a repeated
        // reply (`OK` to two set commands) or a late reply that never came.
        let spokeUnasked = evidence.kind == .unasked || evidence.kind == .begunBeforeCommand
        if spokeUnasked, evidenceListenPeriod > .zero { evidenceListenEnd = now + evidenceListenPeriod }
    }

    /// The quiet that shows a device with unaccounted replies is in step again: twice
    /// the longest it took to answer, within ``resyncQuietPeriod`` and
    /// ``resyncQuietMaximum``.
    private var resyncQuiet: Duration {
        min(max(resyncQuietPeriod, longestAnswer * 2), resyncQuietMaximum)
    }

    /// A line nobody took: it may be one of the unaccounted late replies, which is then
    /// out of the way; a reply held to resync waits for the quiet again from now.
    private mutating func accountForStray(now: ContinuousClock.Instant) {
        guard unaccountedReplies > 0 else { return }
        unaccountedReplies -= 1
        if held?.resyncs == true { wait?.from = now }
    }

    /// Forgets the unaccounted replies once no reply line has come for ``resyncQuiet``
    /// since they were counted: the device is in step.
    private mutating func forgetUnaccountedIfQuiet(now: ContinuousClock.Instant) {
        guard unaccountedReplies > 0, let since = unaccountedSince else { return }
        if now - max(since, lastReplyLineAt ?? since) >= resyncQuiet { unaccountedReplies = 0 }
    }

    /// Reports the settling reply, then what was reported while it settled.
    private mutating func release(now: ContinuousClock.Instant) -> [SessionAction] {
        guard let held else { return [] }
        self.held = nil
        if held.resyncs { forgetUnaccountedIfQuiet(now: now) }
        let reply = SessionEvent.replied(held.id, command: held.command, reply: held.reply, roundTrip: held.roundTrip)
        return ((held.evidence.map { [.settling($0)] } ?? []) + [reply] + held.events).map { .emit($0) }
    }

    /// Emits `actions` now, or keeps their events for after a settling reply.
    private mutating func report(_ actions: [SessionAction]) -> [SessionAction] {
        guard held != nil else { return actions }
        var writes: [SessionAction] = []
        report(actions, into: &writes)
        return writes
    }

    /// Appends `more` to `actions`, keeping their events for after a settling reply
    /// instead while one is held.
    private mutating func report(_ more: [SessionAction], into actions: inout [SessionAction]) {
        guard held != nil else { return actions += more }
        for action in more {
            switch action {
            case .emit(let event): held!.events.append(event)
            case .write: actions.append(action)
            }
        }
    }

    /// Emits `event` now (appended to `actions`), or keeps it for after a settling reply.
    private mutating func report(_ event: SessionEvent, into actions: inout [SessionAction]) {
        if held != nil { held!.events.append(event) } else { actions.append(.emit(event)) }
    }

    // MARK: - Routing lines

    /// Routes `line` (``Session``'s rules), appending what to do to `actions`: a line
    /// that is a notification whatever is in flight (unsolicited, of a learned shape,
    /// not terminated) costs no list of its own.
    private mutating func route(_ line: Line, now: ContinuousClock.Instant, into actions: inout [SessionAction]) {
        if waitingPrefix != nil, let (waiting, rest) = splitWaitingText(from: line) {
            partialPrecedesRequest = false
            report(.notification(waiting), into: &actions)
            return route(rest, now: now, into: &actions)
        }
        let isTailOfOverlongLine = continuesOverlongLine
        continuesOverlongLine = line.ending == .overlong
        let begunBeforeRequest = partialPrecedesRequest
        let cameDuringWrite = repliesAreUnmarked && inFlight?.awaitsWrite == true
        partialPrecedesRequest = false
        if line.ending != .terminated || isTailOfOverlongLine {
            // An empty tail is the overlong line's line end: framing.
            if !line.isEmpty { report(.notification(line), into: &actions) }
            return
        }
        var line = ControlSequences.cleaned(line)
        if let code = endOfDataMode {
            endOfDataMode = nil
            if line.bytes == code { return }
        }
        var taken: [SessionAction] = []
        let noise = line.payloadRange == nil ? dialect.leadingNoiseLength(in: line) : 0
        if noise > 0 {
            taken.append(.emit(.notification(Line(Array(line.bytes.prefix(noise))))))
            line = Line(Array(line.bytes.dropFirst(noise)), terminator: line.terminator)
        }
        if dialect.isUnsolicited(line, pending: inFlight?.request.command)
            || repliesAreUnmarked && unasked.turnsAway(line)
        {
            report(taken, into: &actions)
            return report(.notification(line), into: &actions)
        }
        if !line.isEmpty { lastReplyLineAt = now }
        if let earlier = contested {
            contested = nil
            taken += earlier.cameDuringWrite ? offerStray(earlier.line, now: now) : offerContested(earlier.line)
        }
        if begunBeforeRequest {
            taken += offerStray(line, now: now)
        } else if cameDuringWrite {
            taken += offerDuringWrite(line, now: now)
        } else {
            taken += offerTaken(line, now: now)
        }
        report(taken, into: &actions)
    }

    /// The text that was waiting at open and the rest of `line`, when `line` is the first
    /// request's echo only without that text (``releaseRequests(endingWaitingText:now:)``).
    private mutating func splitWaitingText(from line: Line) -> (waiting: Line, rest: Line)? {
        guard let prefix = waitingPrefix else { return nil }
        waitingPrefix = nil
        guard line.ending == .terminated, line.payloadRange == nil, prefix < line.bytes.count, let flight = inFlight
        else { return nil }
        func isEcho(_ line: Line) -> Bool {
            var trial = flight.matcher
            return trial.offer(ControlSequences.cleaned(line)) == .echo
        }
        let rest = Line(Array(line.bytes.dropFirst(prefix)), terminator: line.terminator)
        guard !isEcho(line), isEcho(rest) else { return nil }
        return (ControlSequences.cleaned(Line(Array(line.bytes.prefix(prefix)), ending: .unterminated)), rest)
    }

    /// Offers a line that is not unsolicited to the matchers, in the session's order.
    private mutating func offerTaken(_ line: Line, now: ContinuousClock.Instant) -> [SessionAction] {
        var actions: [SessionAction] = []
        if let index = beginLateReply(withEcho: line) {
            for older in (0..<index).reversed() { actions += close(owedAt: older, now: now) }
            return actions
        }
        if let flight = inFlight, !owed.isEmpty {
            var trial = flight.matcher
            if trial.offer(line) == .echo {
                for index in owed.indices.reversed() { actions += close(owedAt: index, now: now) }
                inFlight?.matcher = trial
                return actions
            }
        }
        let started = owed.indices.filter { owed[$0].matcher.hasStarted }
        for index in started {
            if let taken = offer(line, toOwed: index) { return taken }
        }
        if var flight = inFlight {
            if !flight.matcher.hasStarted, let oldest = owed.firstIndex(where: { !$0.matcher.hasStarted }) {
                var trial = owed[oldest].matcher
                if trial.offer(line) != .notMine {
                    var inFlightTrial = flight.matcher
                    if case .complete = inFlightTrial.offer(line) {
                        contested = Contested(line: line, at: now)
                        return []
                    }
                }
            }
            let step = flight.matcher.offer(line)
            inFlight = flight
            switch step {
            case .notMine: break
            case .echo, .consumed: return []
            case .ask(let command, _):
                let bytes = Array(command.utf8)
                return [.write(dialect.encode(bytes)), .emit(.sent(flight.request.id, command: command, bytes: bytes))]
            case .write(let bytes):
                return answer(flight, with: bytes)
            case .complete(let reply):
                return complete(flight, with: reply, now: now)
            }
        }
        for index in owed.indices where !started.contains(index) {
            if let taken = offer(line, toOwed: index) { return taken }
        }
        if line.isEmpty { return [] }
        startSettling(SettlingEvidence(.unasked, line: line), now: now)
        accountForStray(now: now)
        if held != nil { held!.reply.isInDoubt = true }
        if inFlight == nil, held == nil, repliesAreUnmarked { unasked.saw(line) }
        return [.emit(.notification(line))]
    }

    /// Gives `line` to the oldest timed-out request whose late reply has not begun, when
    /// it is that request's echo and the echo begins a reply (a device that echoes,
    /// ``ATDialect``); returns its index, or `nil` when there is none. The device answers
    /// in order, so the echo of a command sent again (`AT` timed out, then `AT`) is the
    /// earlier one's.
    private mutating func beginLateReply(withEcho line: Line) -> Int? {
        for index in owed.indices where !owed[index].matcher.hasStarted {
            var trial = owed[index].matcher
            if trial.offer(line) == .echo && trial.hasStarted {
                owed[index].matcher = trial
                return index
            }
        }
        return nil
    }

    /// A line that began before the request in flight was sent: a late reply of a
    /// timed-out request, or a stray.
    private mutating func offerStray(_ line: Line, now: ContinuousClock.Instant) -> [SessionAction] {
        for index in owed.indices {
            if let taken = offer(line, toOwed: index) { return taken }
        }
        if line.isEmpty { return [] }
        startSettling(SettlingEvidence(.begunBeforeCommand, line: line), now: now)
        accountForStray(now: now)
        unasked.saw(line)
        return [.emit(.notification(line))]
    }

    /// The contested line while the request in flight is one of its claimants (not once
    /// that request timed out too, ``Contested/decidesAt``): a request that ends otherwise
    /// leaves it a notification.
    private var contestedByInFlight: Line? {
        guard let contested, contested.decidesAt == nil else { return nil }
        return contested.line
    }

    /// A line that came while the port had not taken the command in flight whole (a
    /// paced or slow write): a timed-out request's late reply, else — when the command
    /// in flight would take it whole — held (``Contested``): a line after it decides it
    /// was a stray (a `!READING` during a paced `PRINT 2+2`); the deadline, running once
    /// the write is done, passing first decides that the device answered before the
    /// write was done (`ERR -363` to a command longer than its buffer): the reply.
    /// Otherwise a stray.
    private mutating func offerDuringWrite(_ line: Line, now: ContinuousClock.Instant) -> [SessionAction] {
        func takes(_ matcher: any ReplyMatcher) -> Bool {
            var trial = matcher
            if case .complete = trial.offer(line) { return true }
            return false
        }
        func isLateReply(_ owed: Owed) -> Bool {
            var trial = owed.matcher
            return trial.offer(line) != .notMine
        }
        if let flight = inFlight, !line.isEmpty, !flight.matcher.hasStarted, takes(flight.matcher),
            !owed.contains(where: isLateReply)
        {
            contested = Contested(line: line, at: now, cameDuringWrite: true)
            return []
        }
        return offerStray(line, now: now)
    }

    /// A line came after a contested one (or none came when due, `isInDoubt`): the
    /// contested line was the oldest timed-out request's late reply (or its beginning),
    /// as the device answers in order.
    private mutating func offerContested(_ line: Line, isInDoubt: Bool = false) -> [SessionAction] {
        answersLate = true
        guard let oldest = owed.firstIndex(where: { !$0.matcher.hasStarted }) else {
            return [.emit(.notification(line))]
        }
        return offer(line, toOwed: oldest, isInDoubt: isInDoubt) ?? [.emit(.notification(line))]
    }

    /// When the answer after the contested line is due if that line is the oldest
    /// timed-out request's late reply: the device answering in order, each command as
    /// late as that one, answers the command sent after it that much after it was sent
    /// (plus ``resyncQuietPeriod``); `nil` when no request is owed.
    private func nextAnswerDue(after held: Contested) -> ContinuousClock.Instant? {
        guard let oldest = owed.firstIndex(where: { !$0.matcher.hasStarted }), let flight = inFlight else {
            return nil
        }
        let lateness = held.at - owed[oldest].sentAt
        let nextSentAt = oldest + 1 < owed.count ? owed[oldest + 1].sentAt : flight.sentAt
        return nextSentAt + lateness + resyncQuietPeriod
    }

    /// The in-flight request's deadline passed with a contested line held. When the
    /// device, as late as the line says, cannot have answered the next command yet
    /// (``nextAnswerDue(after:)``), the request in flight times out too and the line
    /// waits for that answer (``offerContested(_:isInDoubt:)``): three commands to a
    /// device answering 3 s late with a 1 s timeout get three late replies, each its
    /// own. Otherwise the earlier answer was lost: the line is the in-flight reply, in
    /// doubt, and the timed-out requests are closed.
    private mutating func giveContested(_ held: Contested, now: ContinuousClock.Instant) -> [SessionAction] {
        guard var flight = inFlight else {
            contested = nil
            return [.emit(.notification(held.line))]
        }
        if held.cameDuringWrite, case .complete(let reply) = flight.matcher.offer(held.line) {
            contested = nil
            return complete(flight, with: reply, now: now, answeredAt: held.at)
        }
        answersLate = true
        let timedOut = RequestFailure.timedOut(flight.request.timeout ?? .zero)
        if let due = nextAnswerDue(after: held), due > now {
            contested?.decidesAt = due
            return giveUp(flight, failure: timedOut, now: now)
        }
        contested = nil
        inFlight = nil
        var actions: [SessionAction] = []
        for index in owed.indices.reversed() where !owed[index].matcher.hasStarted {
            actions += close(owedAt: index, now: now)
        }
        guard case .complete(var reply) = flight.matcher.offer(held.line) else {
            return actions + [.emit(.notification(held.line))] + giveUp(flight, failure: timedOut, now: now)
        }
        reply.isInDoubt = true
        actions += complete(flight, with: reply, now: held.at)
        wait = lateWait(after: flight.request.timeout ?? .zero, now: now)
        return actions
    }

    /// Offers the unterminated tail (a prompt) in the same order as lines: timed-out
    /// requests whose late reply has begun, then the request in flight.
    private mutating func offerPartial(isQuiet: Bool, now: ContinuousClock.Instant) -> [SessionAction] {
        guard !framer.partial.isEmpty, !framer.isInPayload else { return [] }
        let partial = ControlSequences.removed(from: framer.partial)
        let continuesOverlong = continuesOverlongLine
        for index in owed.indices where owed[index].matcher.hasStarted {
            guard !continuesOverlong || owed[index].matcher.findsPromptAfterText else { continue }
            if let reply = owed[index].matcher.offerPartial(partial, isQuiet: isQuiet) {
                restOfPrompt = owed[index].matcher.restOfPrompt(after: partial)
                _ = framer.takePartial()
                answersLate = true
                if wait?.endsAtPrompt == true { wait = nil }
                let command = owed.remove(at: index).command
                return report([.emit(.lateReply(command: command, reply: reply))])
            }
        }
        guard var flight = inFlight, !continuesOverlong || flight.matcher.findsPromptAfterText else { return [] }
        if let bytes = flight.matcher.answer(toPrompt: partial, isQuiet: isQuiet) {
            inFlight = flight
            restOfPrompt = flight.matcher.restOfPrompt(after: partial)
            _ = framer.takePartial()
            return report(answer(flight, with: bytes))
        }
        let reply = flight.matcher.offerPartial(partial, isQuiet: isQuiet)
        inFlight = flight
        guard let reply else { return [] }
        restOfPrompt = flight.matcher.restOfPrompt(after: partial)
        _ = framer.takePartial()
        return report(complete(flight, with: reply, now: now))
    }

    /// Writes `bytes` as they are, for the request in flight (its matcher's answer to a
    /// prompt, ``MatchStep/write(_:)``), reported as a raw `sent` of that request.
    private func answer(_ flight: InFlight, with bytes: [UInt8]) -> [SessionAction] {
        let text = String(decoding: bytes, as: UTF8.self)
        return [.write(bytes), .emit(.sent(flight.request.id, command: text, bytes: bytes, isRaw: true))]
    }

    /// Offers `line` to a timed-out request's matcher; `nil` when it is not taken.
    /// A timed-out request cannot ask the device for more: what it has is its late reply.
    /// `isInDoubt`: a late reply it completes is in doubt (no line after it confirmed the order).
    private mutating func offer(_ line: Line, toOwed index: Int, isInDoubt: Bool = false) -> [SessionAction]? {
        switch owed[index].matcher.offer(line) {
        case .notMine: return nil
        case .echo, .consumed, .write: return []
        case .complete(var reply), .ask(_, var reply):
            answersLate = true
            let closed = owed.remove(at: index)
            if let lastByteAt { longestAnswer = max(longestAnswer, lastByteAt - closed.sentAt) }
            // An earlier late reply that never came may be this one.
            if isInDoubt || repliesAreUnmarked && unaccountedReplies > 0 { reply.isInDoubt = true }
            return [.emit(.lateReply(command: closed.command, reply: reply))]
        }
    }

    /// Gives up a timed-out request: the lines it took after its timeout without
    /// completing are reported as notifications. In an unmarked dialect its late reply
    /// is unaccounted for: the device may still send it (``unaccountedReplies``).
    private mutating func close(owedAt index: Int, now: ContinuousClock.Instant) -> [SessionAction] {
        let closed = owed.remove(at: index)
        if repliesAreUnmarked, closedReason == nil {
            unaccountedReplies += 1
            unaccountedSince = now
            startSettling(SettlingEvidence(.noLateReply, command: closed.command), now: now)
        }
        return closed.matcher.linesSoFar.dropFirst(closed.linesAtTimeout).filter { !$0.isEmpty }.map {
            .emit(.notification($0))
        }
    }
}
