import Synchronization

/// The pending text (text without a line end yet) a ``TextView`` has shown: shared by
/// the copies of one view, so the record after it knows what is on the line already.
///
/// On a terminal, pending text is written without a line end after a carriage return
/// and an erase to the end of the line (ECMA-48 EL, `ESC [ K`), each report over the
/// one before, so it grows in place; the next record clears it the same way before it
/// is written — the line the text began, once it ends, then stands where the text was.
/// The text drawn is cut to its last characters that fit the terminal's width, so
/// it never wraps (a wrapped line cannot be cleared from its last row).
///
/// To a pipe or a file, nothing can be taken back, so each line is written once, as it
/// comes (as `tio | tee` leaves it): the pending text without a line end, then only
/// what each later report adds, and the line's rest and its line end when it ends.
/// When a report no longer begins with what was written (a backspace went back over
/// it) or the next record is not that line, the written part is ended with a line end
/// and what follows starts a line of its own.
final class PendingTextLine: Sendable {
    /// The pending text shown (escaped, without its stamp), `nil` when there is none.
    private let shown = Mutex<String?>(nil)

    /// Whether no pending text is shown.
    var isEmpty: Bool { shown.withLock { $0 == nil } }

    /// Clears the pending text from a terminal `output` if one is drawn.
    func clear(on output: any OutputSink) {
        if take() != nil { output.write(Self.eraseLine) }
    }

    /// Keeps the pending text shown on `output` as it is and moves to the next line,
    /// for output that is not the rest of that line (a script run's `PASS` record).
    func leave(on output: any OutputSink) {
        if take() != nil { output.write("\n") }
    }

    /// What is left of `line` (escaped, as the view shows it) after the pending text
    /// written to a pipe, when `line` begins with it; the pending text then is done.
    /// `nil` when no pending text was written or `line` does not begin with it.
    func rest(of line: String) -> String? {
        shown.withLock { shown in
            guard let written = shown, line.hasPrefix(written) else { return nil }
            shown = nil
            return String(line.dropFirst(written.count))
        }
    }

    /// Draws `text` (escaped already) in place of the pending text drawn before, after
    /// `stamp` (`width` columns on screen), on a terminal `columns` wide.
    func draw(_ text: String, stamp: String, width: Int, columns: Int, on output: any OutputSink) {
        let room = max(8, columns - 1 - width)
        let drawn = text.count > room ? "…" + text.suffix(room - 1) : text
        shown.withLock { $0 = drawn }
        output.write(Self.eraseLine + stamp + drawn)
    }

    /// Writes `text` (escaped already) to a pipe or file `output`: what it adds to the
    /// pending text written before, or, when it does not begin with that, a line end and
    /// `stamp` and `text` on a line of their own.
    func append(_ text: String, stamp: String, on output: any OutputSink) {
        let written = shown.withLock { shown in
            defer { shown = text }
            return shown
        }
        switch written {
        case .some(let written) where text.hasPrefix(written): output.write(String(text.dropFirst(written.count)))
        case .some: output.write("\n" + stamp + text)
        case .none: output.write(stamp + text)
        }
    }

    /// The pending text shown; none is shown after this.
    private func take() -> String? {
        shown.withLock { shown in
            defer { shown = nil }
            return shown
        }
    }

    /// Carriage return, then erase to the end of the line.
    static let eraseLine = "\r\u{1B}[K"
}
