/// The text that was waiting when the port opened, apart from the first command's echo.
extension Pairing {
    /// The text that was waiting at open and the rest of `line`, when `line` is the first
    /// request's echo only without that text (``Session/releaseRequests(endingWaitingText:now:)``).
    mutating func splitWaitingText(from line: Line) -> (waiting: Line, rest: Line)? {
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
}
