/// A modem's data state (ITU-T V.250 §5.2.3, 6.3.8): after a `CONNECT[ <rate>]` final
/// result code every byte is data (PPP frames, `0x7E`…), not lines, until the module is
/// back in command mode — it says `NO CARRIER` (the call ended), or, once the host sent
/// the escape `+++`, `OK` (online command state). ``Session`` reads the bytes with it.
struct DataMode: Sendable {
    /// The result code that ends the data state.
    static let noCarrier = Array("NO CARRIER".utf8)
    /// The escape sequence the host sends to return to command mode.
    static let escape = Array("+++".utf8)
    /// The result code after the escape.
    static let ok = Array("OK".utf8)

    /// When the data state began: a command queued before waits for command mode from then.
    let began: ContinuousClock.Instant
    /// The host sent ``escape``: an `OK` line now ends the data state.
    var escapeSent = false
    /// Bytes held back because they may begin the code that ends the data state.
    private(set) var held: [UInt8] = []

    /// Reads received bytes: the data they hold, and — when the data state ends in them
    /// — the bytes from the code that ends it (`NO CARRIER…`, `OK…`), which are lines
    /// again. The CR LF that frames that code is not data.
    mutating func take(_ bytes: some Collection<UInt8>) -> (data: [UInt8], end: [UInt8]?) {
        let buffer = held + bytes
        held = []
        if let start = endIndex(in: buffer) {
            var dataEnd = start
            while dataEnd > 0, buffer[dataEnd - 1] == 0x0D || buffer[dataEnd - 1] == 0x0A, start - dataEnd < 2 {
                dataEnd -= 1
            }
            return (Array(buffer[..<dataEnd]), Array(buffer[start...]))
        }
        let kept = heldLength(of: buffer)
        held = Array(buffer.suffix(kept))
        return (Array(buffer.dropLast(kept)), nil)
    }

    /// Whether the code that ended the data state is also read as a line: the `OK` after
    /// the escape is (a script expects it, docs/SCRIPTING.md); `NO CARRIER` is reported
    /// once, as the return to command mode.
    static func isReadAsLine(_ code: some Collection<UInt8>) -> Bool {
        code.elementsEqual(ok)
    }

    /// When `request`, waiting in the queue for command mode, times out unsent: its
    /// timeout after it was queued or the data state began, whichever is later — nothing
    /// waits without its deadline (`ATDataModeTests`). `nil` for a raw write (it goes out
    /// in data mode) or a request without a timeout.
    func deadline(of request: Request) -> ContinuousClock.Instant? {
        guard !request.isRaw, let timeout = request.timeout else { return nil }
        return max(request.queuedAt, began) + timeout
    }

    /// Removes from `queue` the requests whose ``deadline(of:)`` has passed, timed out:
    /// no reply came within their timeout (none can while they wait), and as they were
    /// never sent no late reply is owed.
    func failExpired(in queue: inout [Request], now: ContinuousClock.Instant) -> [SessionAction] {
        var failed: [SessionAction] = []
        queue.removeAll { request in
            guard let deadline = deadline(of: request), deadline <= now, let timeout = request.timeout else {
                return false
            }
            failed.append(.emit(.failed(request.id, command: request.command, failure: .timedOut(timeout))))
            return true
        }
        return failed
    }

    /// The bytes held back, as data (the line went quiet, or the device hung up).
    mutating func flush() -> [UInt8] {
        defer { held = [] }
        return held
    }

    /// Where the code that ends the data state starts in `buffer`, or `nil`.
    private func endIndex(in buffer: [UInt8]) -> Int? {
        var found = Self.firstIndex(of: Self.noCarrier, in: buffer, atLineStart: false)
        if escapeSent, let ok = Self.firstIndex(of: Self.ok, in: buffer, atLineStart: true) {
            found = min(found ?? ok, ok)
        }
        return found
    }

    /// The longest end of `buffer` that may begin an ending code, with the CR LF before
    /// it (or a CR LF alone): held back until more comes.
    private func heldLength(of buffer: [UInt8]) -> Int {
        let markers = escapeSent ? [Self.noCarrier, Self.ok] : [Self.noCarrier]
        var length = 0
        for candidate in stride(from: min(buffer.count, Self.noCarrier.count - 1), to: 0, by: -1) {
            let suffix = buffer.suffix(candidate)
            if markers.contains(where: { $0.starts(with: suffix) }) {
                length = candidate
                break
            }
        }
        var framing = 0
        while framing < 2, length + framing < buffer.count,
            buffer[buffer.count - length - framing - 1] == 0x0D || buffer[buffer.count - length - framing - 1] == 0x0A
        {
            framing += 1
        }
        return length + framing
    }

    /// The first `marker` in `buffer` — with `atLineStart`, only at its start or after a
    /// CR or LF, and followed by a CR or LF (a whole `OK` line).
    private static func firstIndex(of marker: [UInt8], in buffer: [UInt8], atLineStart: Bool) -> Int? {
        guard buffer.count >= marker.count else { return nil }
        for start in 0...(buffer.count - marker.count)
        where buffer[start..<(start + marker.count)].elementsEqual(marker) {
            guard atLineStart else { return start }
            let before = start == 0 || buffer[start - 1] == 0x0D || buffer[start - 1] == 0x0A
            let after = start + marker.count
            if before, after < buffer.count, buffer[after] == 0x0D || buffer[after] == 0x0A { return start }
        }
        return nil
    }
}
