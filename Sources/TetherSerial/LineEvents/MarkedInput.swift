/// The received bytes of a port with the termios `PARMRK` marking on, turned into data
/// and ``LineEvent``s: a ``MarkedInputDecoder`` and what the port's parity says of a
/// marked character. ``SerialPort`` reads through one; a test transport can too.
public struct MarkedInput: Sendable {
    private var decoder = MarkedInputDecoder()
    /// Whether the port checks parity (`PARENB`): without it a marked character can
    /// only have had a framing error.
    public let checksParity: Bool

    /// Creates the decoding for a port that checks parity or not.
    public init(checksParity: Bool) {
        self.checksParity = checksParity
    }

    /// Whether the start of a marking from an earlier read is held: the next read must
    /// leave one byte of room in its buffer (``MarkedInputDecoder/decode(_:count:_:)``).
    public var holdsPartialMark: Bool { decoder.holdsPartialMark }

    /// Decodes one read in place (`count` bytes at the front of `buffer`; 0 at the end
    /// of the stream).
    ///
    /// - Returns: `data`, the count of data bytes now at the front of `buffer` — as
    ///   ``SerialTransport/receive(into:)`` returns it: ``SerialTransport/nothingReceived``
    ///   for a read that held only markings, 0 at the end of the stream once a marking
    ///   cut short there was given back as data — and the events, placed among them.
    public mutating func decode(
        _ buffer: UnsafeMutableRawBufferPointer, count: Int
    ) -> (data: Int, events: [PlacedLineEvent]) {
        guard count > 0 else {
            let rest = decoder.finish()
            for (offset, byte) in rest.enumerated() { buffer[offset] = byte }
            return (rest.count, [])
        }
        let checksParity = self.checksParity
        var events: [PlacedLineEvent] = []
        let data = decoder.decode(buffer, count: count) { offset, mark in
            let event: LineEvent =
                switch mark {
                case .lineBreak: .lineBreak
                case .erroredByte(let byte):
                    checksParity ? .framingOrParityError(byte: byte) : .framingError(byte: byte)
                }
            events.append(PlacedLineEvent(offset: offset, event: event))
        }
        return (data == 0 ? SerialPort.nothingReceived : data, events)
    }
}
