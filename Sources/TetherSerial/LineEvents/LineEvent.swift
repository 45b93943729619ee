/// Something the UART reported about the received line rather than a data byte: a
/// break, a byte received with a framing or parity error, an overrun, or a change of
/// the modem status inputs (CTS, DSR, DCD, RI).
///
/// A local port reports the first three through the termios `PARMRK` marking
/// (``MarkedInputDecoder``), an RFC 2217 server through `NOTIFY-LINESTATE` and
/// `NOTIFY-MODEMSTATE` (RFC 2217, section 3); docs/HARDWARE.md, "Breaks, framing errors
/// and modem-line changes".
public enum LineEvent: Sendable, Hashable {
    /// A break: the line was held at space for longer than a character time.
    case lineBreak
    /// A character whose stop bit was missing: usually the wrong baud rate. `byte` is
    /// the character as the UART read it, when the port says (`nil` over RFC 2217).
    case framingError(byte: UInt8?)
    /// A character whose parity bit was wrong.
    case parityError(byte: UInt8?)
    /// A character received with a framing or a parity error, on a port with parity
    /// enabled whose driver does not say which (`PARMRK` marks both alike).
    case framingOrParityError(byte: UInt8)
    /// Characters were lost: the UART's or the driver's buffer overflowed.
    case overrun
    /// The modem status inputs changed: `lines` holds the inputs asserted now (CTS,
    /// DSR, DCD, RI; the outputs DTR and RTS are left out), `changed` those that
    /// changed since the last report. A ring that started and ended between two
    /// looks is in `changed` with RI clear in `lines`.
    case modemLines(ModemLines, changed: ModemLines)

    /// The event's name in the JSON `line_event` record (docs/JSON.md):
    /// `break`, `framing_error`, `parity_error`, `framing_or_parity_error`, `overrun`,
    /// `modem_lines`.
    public var name: String {
        switch self {
        case .lineBreak: "break"
        case .framingError: "framing_error"
        case .parityError: "parity_error"
        case .framingOrParityError: "framing_or_parity_error"
        case .overrun: "overrun"
        case .modemLines: "modem_lines"
        }
    }
}

/// A ``LineEvent`` and where it happened in the bytes one read returned: `offset`
/// bytes of that read came before it (0...count). Made by the transports.
public struct PlacedLineEvent: Sendable, Hashable {
    /// How many bytes of the read came before the event (0...count).
    public let offset: Int
    /// What the UART reported.
    public let event: LineEvent
}
