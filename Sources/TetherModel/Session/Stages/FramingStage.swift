/// The session's first stage: received bytes into lines, or into data while a modem is in
/// data mode, and the clock of the unterminated bytes after the last line (a prompt,
/// pending text). docs/ARCHITECTURE.md, "The session pipeline".
struct FramingStage: Sendable {
    /// How long the unterminated bytes must stay unchanged to be offered as quiet (a
    /// prompt after other text, ``PromptDialect``), and how long an indefinite-length
    /// block or held data-mode bytes wait for more.
    static let partialQuietPeriod = Duration.milliseconds(50)

    /// What received bytes are.
    enum Mode: Sendable {
        /// Lines, framed by ``LineFramer``.
        case lines
        /// A modem's data (``Dialect/entersDataMode(after:)``), until the code that ends it.
        case data(DataMode)
    }

    /// Whether the port is being read (``Session/noteReading(_:now:)``).
    enum Reading: Sendable, Equatable {
        /// Read since the given instant (`nil`: from the start).
        case reading(since: ContinuousClock.Instant?)
        /// Not read: bytes may wait unread, so no quiet counts.
        case stalled
    }

    private(set) var framer: LineFramer
    private(set) var mode = Mode.lines
    private(set) var lastByteAt: ContinuousClock.Instant?
    /// Every byte received so far, counted (pending text is named by its offset).
    private(set) var receivedCount = 0
    /// Whether the unterminated bytes were offered as quiet since the last byte.
    var offeredQuietPartial = false
    /// Whether the unterminated bytes were reported as pending text since the last byte.
    var reportedPendingText = false
    private var reading = Reading.reading(since: nil)
    /// What is still due of the prompt last taken from the unterminated bytes
    /// (``ReplyMatcher/restOfPrompt(after:)``): dropped where the next bytes begin with it.
    var restOfPrompt: [UInt8] = []
    /// The code that ended data mode, reported already: its line is dropped when it ends.
    private var endOfDataMode: [UInt8]?
    /// Whether the last line was an overlong piece, so the next one is its tail.
    private(set) var continuesOverlongLine = false

    init(maximumLineLength: Int, payloadFraming: (any PayloadFraming)?) {
        framer = LineFramer(maximumLineLength: maximumLineLength, payloadFraming: payloadFraming)
    }

    var partial: [UInt8] { framer.partial }
    var isInDataMode: Bool { if case .data = mode { true } else { false } }
    /// The offset in the received stream of the first unterminated byte.
    var pendingStart: Int { receivedCount - framer.partial.count }

    /// Notes bytes read at `now` and returns them without what is still due of a prompt.
    mutating func noteReceived(_ received: [UInt8], now: ContinuousClock.Instant) -> [UInt8] {
        guard !received.isEmpty else { return received }
        lastByteAt = now
        offeredQuietPartial = false
        reportedPendingText = false
        receivedCount += received.count
        guard !restOfPrompt.isEmpty else { return received }
        let common = zip(restOfPrompt, received).prefix { $0 == $1 }.count
        restOfPrompt = common == received.count ? Array(restOfPrompt.dropFirst(common)) : []
        return Array(received.dropFirst(common))
    }

    mutating func lines(from bytes: some Collection<UInt8>) -> [Line] { framer.append(bytes) }

    /// Notes that `line` is routed now; returns whether it is the tail of an overlong line.
    mutating func beginRouting(_ line: Line) -> Bool {
        defer { continuesOverlongLine = line.ending == .overlong }
        return continuesOverlongLine
    }

    /// Whether `line` (control sequences removed) is the code that ended data mode,
    /// reported already; it is then dropped.
    mutating func isEndOfDataMode(_ line: Line) -> Bool {
        guard let code = endOfDataMode else { return false }
        endOfDataMode = nil
        return line.bytes == code
    }

    // MARK: - Data mode

    mutating func enterDataMode(now: ContinuousClock.Instant) { mode = .data(DataMode(began: now)) }

    /// The host wrote `bytes` outside any request: in data mode, the escape `+++` makes
    /// the module's `OK` end it.
    mutating func noteWrite(_ bytes: [UInt8]) {
        guard bytes == DataMode.escape, case .data(var dataMode) = mode else { return }
        dataMode.escapeSent = true
        mode = .data(dataMode)
    }

    /// Bytes received in data mode: the data, and once the code that ends it has come,
    /// that code (its line) and the lines framed from it on — lines again from then.
    mutating func takeData(_ bytes: some Collection<UInt8>) -> (data: [UInt8], code: Line?, lines: [Line]) {
        guard case .data(var dataMode) = mode else { return ([], nil, []) }
        let (data, end) = dataMode.take(bytes)
        guard let end else {
            mode = .data(dataMode)
            return (data, nil, [])
        }
        mode = .lines
        let code = Array(end.prefix { $0 != 0x0D && $0 != 0x0A })
        if !DataMode.isReadAsLine(code) { endOfDataMode = code }
        return (data, Line(code), framer.append(end))
    }

    /// The data held back because it may begin the code that ends data mode.
    mutating func flushData() -> [UInt8]? {
        guard case .data(var dataMode) = mode else { return nil }
        defer { mode = .data(dataMode) }
        return dataMode.flush()
    }

    /// Everything framed after the line at `index` of `lines`, and the unterminated bytes,
    /// as bytes: data mode began with that line.
    mutating func bytes(after index: Int, of lines: [Line]) -> [UInt8] {
        lines[(index + 1)...].flatMap { $0.receivedBytes + ($0.terminator?.bytes ?? []) } + framer.takePartial()
    }

    // MARK: - The unterminated bytes

    /// Takes the unterminated bytes out of the framer (a prompt taken, or data after all).
    @discardableResult
    mutating func takePartial() -> [UInt8] { framer.takePartial() }
    mutating func removePartialPrefix(_ count: Int) { framer.removePartialPrefix(count) }
    mutating func endIndefiniteBlock() -> Line? { framer.endIndefiniteBlock() }
    mutating func finish() -> Line? { framer.finish() }

    mutating func noteReading(_ isReading: Bool, now: ContinuousClock.Instant) {
        guard isReading == (reading == .stalled) else { return }
        reading = isReading ? .reading(since: now) : .stalled
    }

    /// When the bytes data mode holds back are data after all (the line went quiet), or `nil`.
    var heldDataAt: ContinuousClock.Instant? {
        guard case .data(let dataMode) = mode, !dataMode.held.isEmpty, let lastByteAt else { return nil }
        return lastByteAt + Self.partialQuietPeriod
    }

    /// When the indefinite-length block whose LF came last ends, or `nil`.
    var indefiniteBlockEndAt: ContinuousClock.Instant? {
        guard framer.awaitsEndOfIndefiniteBlock, let lastByteAt else { return nil }
        return lastByteAt + Self.partialQuietPeriod
    }

    /// When the unterminated bytes are to be offered as quiet, or `nil`; `isAwaited`:
    /// a request in flight, or a late reply begun, may take them.
    func quietPartialAt(isAwaited: Bool) -> ContinuousClock.Instant? {
        guard isAwaited, !offeredQuietPartial, !framer.partial.isEmpty, !framer.isInPayload, let lastByteAt
        else { return nil }
        return lastByteAt + Self.partialQuietPeriod
    }

    /// When the unterminated bytes are to be reported as pending text after `quiet`, or `nil`.
    func pendingTextAt(quiet: Duration) -> ContinuousClock.Instant? {
        guard !reportedPendingText, case .reading(let since) = reading, !framer.partial.isEmpty,
            !framer.isInPayload, let lastByteAt
        else { return nil }
        return max(lastByteAt, since ?? lastByteAt) + quiet
    }

    /// The unterminated bytes as a prompt may take them (control sequences removed), or
    /// `nil` when there are none or they are a payload's.
    var offerablePartial: [UInt8]? {
        guard !framer.partial.isEmpty, !framer.isInPayload else { return nil }
        return ControlSequences.removed(from: framer.partial)
    }

    /// The length of the unterminated text still waiting when a request goes out, or
    /// `nil` when there is none (a payload's bytes are no text).
    var waitingTextLength: Int? {
        framer.partial.isEmpty || framer.isInPayload ? nil : framer.partial.count
    }
}
