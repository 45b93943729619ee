import Synchronization

/// The line and modem state an RFC 2217 server notifies (`NOTIFY-LINESTATE`,
/// `NOTIFY-MODEMSTATE`; RFC 2217, "Notification of Line and Modem State Changes"),
/// turned into ``LineEvent``s.
///
/// Line state bits: 16 break-detect, 8 framing error, 4 parity error, 2 overrun error
/// (the others are not events). Modem state bits: 128 DCD, 64 RI, 32 DSR, 16 CTS, and
/// the deltas 8 DCD changed, 4 trailing edge of RI, 2 DSR changed, 1 CTS changed. A
/// modem state without a delta bit that differs from none before (the first, sent
/// when the mask is set) is the baseline, not a change.
struct RemoteLineState: Sendable {
    private var modem: UInt8?
    private(set) var events: [PlacedLineEvent] = []

    /// Whether events wait to be taken.
    var hasEvents: Bool { !events.isEmpty }

    /// Takes one COM-PORT-OPTION answer (`code`: the server's command code) read after
    /// `offset` data bytes of the read; answers that are not notifications are ignored.
    mutating func take(code: UInt8, value: [UInt8], at offset: Int) {
        guard let bits = value.first else { return }
        switch code {
        case ComPortOption.Command.notifyLineState.rawValue + ComPortOption.replyOffset:
            let found: [(UInt8, LineEvent)] = [
                (0x10, .lineBreak), (0x08, .framingError(byte: nil)), (0x04, .parityError(byte: nil)),
                (0x02, .overrun),
            ]
            for (bit, event) in found where bits & bit != 0 {
                events.append(PlacedLineEvent(offset: offset, event: event))
            }
        case ComPortOption.Command.notifyModemState.rawValue + ComPortOption.replyOffset:
            let lines: [(state: UInt8, delta: UInt8, line: ModemLines)] = [
                (0x10, 0x01, .cts), (0x20, 0x02, .dsr), (0x80, 0x08, .dcd), (0x40, 0x04, .ri),
            ]
            var changed = ModemLines()
            var asserted = ModemLines()
            for entry in lines {
                if bits & entry.state != 0 { asserted.insert(entry.line) }
                let differs = modem.map { ($0 ^ bits) & entry.state != 0 } ?? false
                if bits & entry.delta != 0 || differs { changed.insert(entry.line) }
            }
            modem = bits
            if !changed.isEmpty {
                events.append(PlacedLineEvent(offset: offset, event: .modemLines(asserted, changed: changed)))
            }
        default:
            break
        }
    }

    /// The events so far, each once.
    mutating func take() -> [PlacedLineEvent] {
        defer { events.removeAll() }
        return events
    }
}

extension RFC2217Port {
    /// The breaks, framing, parity and overrun errors and modem-line changes the
    /// server notified in the last read, each placed after that read's data (the
    /// telnet stream does not say where among it the server saw them).
    public func takeLineEvents() -> [PlacedLineEvent] {
        receiving.withLock { $0.notifications.hasEvents ? $0.notifications.take() : [] }
    }
}
