/// The session's second stage: what a framed line is before any request is asked —
/// leading noise, an unsolicited line the dialect names, or a line of a shape the device
/// was heard saying unasked (``UnaskedLines``) — or a candidate for pairing.
/// docs/DIALECTS.md, "Rules every dialect shares".
struct Classifier: Sendable {
    /// What a line is.
    enum Verdict: Sendable, Equatable {
        /// A notification whatever is in flight.
        case notification(Line)
        /// A line a request may take (``Pairing``).
        case candidate(Line)
    }

    let dialect: any Dialect
    private let repliesAreUnmarked: Bool
    /// What the device says unasked (unmarked dialects): lines of those shapes are no replies.
    private(set) var unasked = UnaskedLines()

    init(dialect: any Dialect) {
        self.dialect = dialect
        repliesAreUnmarked = dialect.repliesAreUnmarked
    }

    /// Classifies a terminated line (control sequences removed) while `pending` is the
    /// command in flight: the leading noise the dialect names, apart, and the verdict on
    /// the rest.
    mutating func classify(_ line: Line, pending: String?) -> (noise: Line?, verdict: Verdict) {
        var line = line
        var noise: Line?
        let length = line.payloadRange == nil ? dialect.leadingNoiseLength(in: line) : 0
        if length > 0 {
            noise = Line(Array(line.bytes.prefix(length)))
            line = Line(Array(line.bytes.dropFirst(length)), terminator: line.terminator)
        }
        if dialect.isUnsolicited(line, pending: pending) || repliesAreUnmarked && unasked.turnsAway(line) {
            return (noise, .notification(line))
        }
        return (noise, .candidate(line))
    }

    /// A stray line was heard while nothing was asked: its shape may be learned.
    mutating func learn(_ line: Line) {
        if repliesAreUnmarked { unasked.saw(line) }
    }

    mutating func requestSent() { unasked.requestSent() }
    mutating func requestGotNoReply() { unasked.requestGotNoReply() }
}
