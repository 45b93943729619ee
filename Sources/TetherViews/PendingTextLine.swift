import Synchronization

/// The pending text (text without a line end yet) a ``TextView`` has drawn in place on
/// a terminal: shared by the copies of one view, so the record after it knows to
/// clear that line first.
///
/// On a terminal, pending text is written without a line end after a carriage return
/// and an erase to the end of the line (ECMA-48 EL, `ESC [ K`), each report over the
/// one before, so it grows in place; the next record clears it the same way before it
/// is written — the line the text began, once it ends, then stands where the text was.
/// The text drawn is cut to its last characters that fit the terminal's width, so
/// it never wraps (a wrapped line cannot be cleared from its last row).
final class PendingTextLine: Sendable {
    private let isDrawn = Mutex(false)

    /// Clears the pending text from `output` if one is drawn.
    func clear(on output: any OutputSink) {
        if takeDrawn() { output.write(Self.eraseLine) }
    }

    /// Keeps the pending text drawn on `output` as it is and moves to the next line,
    /// for output that is not the device's (a script run's `PASS` record).
    func leave(on output: any OutputSink) {
        if takeDrawn() { output.write("\n") }
    }

    /// Whether pending text is drawn; it no longer counts as drawn after this.
    private func takeDrawn() -> Bool {
        isDrawn.withLock { isDrawn in
            defer { isDrawn = false }
            return isDrawn
        }
    }

    /// Draws `text` (escaped already) in place of the pending text drawn before, after
    /// `stamp` (`width` columns on screen), on a terminal `columns` wide.
    func draw(_ text: String, stamp: String, width: Int, columns: Int, on output: any OutputSink) {
        let room = max(8, columns - 1 - width)
        let shown = text.count > room ? "…" + text.suffix(room - 1) : text
        isDrawn.withLock { $0 = true }
        output.write(Self.eraseLine + stamp + shown)
    }

    /// Carriage return, then erase to the end of the line.
    static let eraseLine = "\r\u{1B}[K"
}
