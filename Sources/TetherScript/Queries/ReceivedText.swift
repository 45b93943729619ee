import TetherModel

/// What a query file's wait lines look at: the lines the device sent that no line's
/// reply took (notifications, late replies), oldest first, and the text after its last
/// line without a line end yet (a prompt), as Lua's `expect` sees them
/// (docs/SCRIPTING.md, "Query files").
///
/// A match consumes every line up to it; a match in the pending text consumes it up to
/// the end of the match — in the device too when it still can
/// (``RunMediator/consumePendingText(of:start:count:)``), else here: the line that text
/// began then arrives without the consumed part.
struct ReceivedText {
    /// The most lines kept; older ones are dropped.
    static let limit = 10_000

    /// Text without a line end yet, as the device last reported it.
    private struct Pending {
        var bytes: [UInt8]
        /// Its offset in the device's stream; `nil` once part was consumed there.
        var start: Int?
        /// How many of its bytes a wait consumed here.
        var skip = 0
        /// Whether it is the prompt that ended the latest reply, which the device
        /// holds no more (no line begins with it).
        var isTaken = false
    }

    private var lines: [String] = []
    private var head = 0
    private var pending: Pending?

    /// A line arrived: the first after pending text is the line that text began, so
    /// what a wait consumed of it is dropped.
    mutating func append(_ line: Line) {
        var bytes = line.bytes
        if let open = pending {
            pending = nil
            if open.skip > 0, bytes.starts(with: open.bytes.prefix(open.skip)) { bytes.removeFirst(open.skip) }
        }
        lines.append(String(decoding: bytes, as: UTF8.self))
        if lines.count - head > Self.limit { head += 1 }
        if head >= 1024, head * 2 >= lines.count {
            lines.removeFirst(head)
            head = 0
        }
    }

    /// The device reported its pending text (whole) at stream offset `start`.
    mutating func setPending(_ line: Line, start: Int) {
        if pending?.start == start {
            pending?.bytes = line.bytes
        } else {
            pending = Pending(bytes: line.bytes, start: start)
        }
    }

    /// A reply took the device's lines: pending text reported before is no longer
    /// pending. The prompt that ended it (``Reply/prompt``) is what the console shows
    /// now, so a wait may match it.
    mutating func replyTook(_ reply: Reply) {
        if !reply.lines.isEmpty || reply.finalResult != nil { pending = nil }
        if let prompt = reply.prompt { pending = Pending(bytes: prompt.bytes, start: nil, isTaken: true) }
    }

    /// Finds the first unconsumed line `pattern` matches, else a match in the pending
    /// text, and consumes up to it.
    ///
    /// - Parameter consumeInDevice: consumes `count` bytes of the device's pending
    ///   text that starts at `start`; returns whether it could.
    /// - Returns: the line, or the pending text from where it was unconsumed; `nil`
    ///   when nothing matches.
    mutating func take(matching pattern: LinePattern, consumeInDevice: (_ start: Int, _ count: Int) -> Bool)
        -> String?
    {
        if let index = lines[head...].firstIndex(where: { pattern.matches($0) }) {
            head = index + 1
            return lines[index]
        }
        guard var open = pending else { return nil }
        let rest = Array(open.bytes[open.skip...])
        let text = String(decoding: rest, as: UTF8.self)
        guard let end = pattern.endOfFirstMatch(in: text) else { return nil }
        head = lines.count
        // Offsets in the text are offsets in the bytes only when they are UTF-8.
        let consumed = String(validating: rest, as: UTF8.self) == nil ? rest.count : end
        let stop = open.skip + consumed
        if open.isTaken || open.start.map({ stop > 0 && consumeInDevice($0, stop) }) == true {
            pending =
                stop < open.bytes.count
                ? Pending(bytes: Array(open.bytes[stop...]), start: nil, isTaken: open.isTaken) : nil
        } else {
            open.skip = stop
            pending = open
        }
        return text
    }
}
