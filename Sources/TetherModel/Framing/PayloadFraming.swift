/// How a dialect's binary payloads are framed inside the line stream — the decoder a
/// dialect puts in front of its lines, as a swift-nio pipeline's decoder is chosen.
///
/// ``LineFramer`` cuts lines at CR and LF. A payload framing names the bytes that may
/// begin a payload header (``headerStarts``: `#` for an IEEE 488.2 block, `+` for an
/// ESP-AT `+IPD`), and the framer asks it to read a header (``header(in:)``) only
/// where a line starts with one of them — or, with ``separators``, where one follows a
/// separator inside a line — so ordinary lines cost one comparison more. A payload is
/// then taken by count, never cut at CR or LF, and the ``Line`` that carries it says
/// where it is (``Line/payloadRange``).
///
/// Built in: ``ArbitraryBlockFraming`` (`scpi`), ``TemplatePayloadFraming`` (`at`).
/// docs/DIALECTS.md, "Binary payloads", describes them for users.
public protocol PayloadFraming: Sendable {
    /// The bytes that may begin a header.
    var headerStarts: [UInt8] { get }

    /// The bytes after which a header may also begin inside a line (SCPI: a space
    /// after the response header, `,` and `;` between data); empty when a header only
    /// begins a line.
    var separators: [UInt8] { get }

    /// Reads the header at the start of `bytes`: the line's bytes from a header start
    /// byte on, as many as have arrived (at most ``LineFramer/maximumHeaderLength``;
    /// CR and LF included, since a header ends where the framing says). Once it
    /// answers anything but ``PayloadHeader/incomplete``, it must answer the same for
    /// every longer `bytes` with that start, so the frames do not depend on how the
    /// bytes were cut into reads.
    func header(in bytes: ArraySlice<UInt8>) -> PayloadHeader
}

/// What a ``PayloadFraming`` read at a header start byte.
public enum PayloadHeader: Sendable, Equatable {
    /// Not a header: the line is an ordinary line (`# hello`, `#A`).
    case notAHeader
    /// Maybe a header: more bytes are needed to tell.
    case incomplete
    /// A header of `headerLength` bytes followed by `payloadLength` bytes of payload.
    /// With `endsLine` the line ends with the payload (`+IPD,1,11:` and 11 bytes: no
    /// terminator follows); without it, the line goes on to its terminator (an
    /// IEEE 488.2 definite-length block, `#42000` and 2000 bytes, then LF).
    case block(headerLength: Int, payloadLength: Int, endsLine: Bool)
    /// A header of `headerLength` bytes followed by a payload of unknown length that
    /// ends at a LF followed by quiet (IEEE 488.2 `#0`; see
    /// ``LineFramer/endIndefiniteBlock()``).
    case indefinite(headerLength: Int)
    /// The header is a whole line (Quectel `+QIRD: 5`): it ends at its terminator as
    /// usual, and the next `payloadLength` bytes are the payload, a line of their own.
    case announcing(payloadLength: Int)
}
