import FoundationEssentials

/// Bytes of one direction cut into lines at their line ends (LF, CR LF, or a CR not
/// followed by LF), each line with the time its last byte came: what a transcript
/// writes when it is given the byte stream rather than the session's lines.
///
/// With ``holdsTrailingCR`` (received bytes, where a CR LF may be split between two
/// reads) a CR that ends a chunk waits for the next one, which may begin with its LF;
/// without (typed keys: Enter is a CR), the CR ends the line at once.
struct LineSplitter: Sendable {
    /// Whether a CR at the end of a chunk waits for a possible LF.
    var holdsTrailingCR: Bool
    /// A complete line: when its last byte came, and its bytes, line end included.
    struct Piece: Sendable, Equatable {
        var time: Date
        var bytes: [UInt8]
    }

    private var partial: [UInt8] = []
    private var latest: Date?

    /// Creates an empty splitter.
    init(holdsTrailingCR: Bool = true) {
        self.holdsTrailingCR = holdsTrailingCR
    }

    /// Takes `bytes` that came at `time`; returns the lines they complete.
    mutating func take(_ bytes: [UInt8], at time: Date) -> [Piece] {
        var pieces: [Piece] = []
        for byte in bytes {
            if partial.last == 0x0D, byte != 0x0A { pieces.append(cut()) }
            latest = time
            partial.append(byte)
            if byte == 0x0A || byte == 0x0D && !holdsTrailingCR { pieces.append(cut()) }
        }
        return pieces
    }

    /// The bytes after the last line end, as a line of their own (at the end of the
    /// session); `nil` when there are none.
    mutating func flush() -> Piece? {
        partial.isEmpty ? nil : cut()
    }

    /// A line ended by a CR still waiting for a possible LF, once the session has moved
    /// on (a later record says no LF is coming with it); `nil` when there is none.
    mutating func flushHeldCR() -> Piece? {
        partial.last == 0x0D ? cut() : nil
    }

    private mutating func cut() -> Piece {
        defer { partial = [] }
        return Piece(time: latest ?? Date(), bytes: partial)
    }
}
