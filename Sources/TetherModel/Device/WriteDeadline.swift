/// How long the port may take to accept one command's bytes before the write is given
/// up and the request fails (docs/RELIABILITY.md, "Deadlines").
///
/// A command's write begins when its first byte may go (the bytes before it written,
/// the pacing pause after them over) and must be complete within its **budget**:
///
/// - the time its bytes need on the wire at the port's baud rate, 10 bits a byte (a
///   start bit, 8 data bits, a stop bit: 9600 baud ≈ 1.04 ms a byte), when the port
///   reports a baud rate (a raw TCP connection does not: none is counted);
/// - the pacing of its bytes (``Pacing``: the character delay after each byte, the
///   command delay before it);
/// - a margin: the request's timeout, at least ``minimumMargin``; ``untimedMargin``
///   for a request with no timeout (`--timeout 0`), a raw write (``Device/write(_:)``)
///   and an immediate write (``Device/writeNow(_:)``) — so no write waits for ever.
///
/// The reply's timeout counts from the end of the write: a device cannot answer a
/// command it has not received whole.
public struct WriteDeadline: Sendable, Equatable {
    /// The smallest margin, for a request with a short timeout (a line held by XOFF
    /// for a moment does not fail a 100 ms query): 2 000 ms by default.
    public var minimumMargin: Duration
    /// The margin of a write with no timeout: 10 000 ms by default.
    public var untimedMargin: Duration

    /// Creates the rule; the margins default to 2 000 ms and 10 000 ms.
    public init(minimumMargin: Duration = .seconds(2), untimedMargin: Duration = .seconds(10)) {
        self.minimumMargin = minimumMargin
        self.untimedMargin = untimedMargin
    }

    /// The time `count` bytes need on a line at `baudRate` bit/s, 10 bits a byte;
    /// zero when the baud rate is not known (`nil`) or not positive.
    public static func wireTime(ofBytes count: Int, baudRate: Int?) -> Duration {
        guard let baudRate, baudRate > 0 else { return .zero }
        return .microseconds(Int64(count) * 10_000_000 / Int64(baudRate))
    }

    /// How long the write of `count` bytes may take, from when its first byte may go.
    ///
    /// - Parameters:
    ///   - count: the number of bytes written.
    ///   - baudRate: the port's baud rate in bit/s, `nil` when it reports none.
    ///   - pacing: the pauses between characters and after the command, added to the wire time.
    ///   - timeout: the request's timeout; `nil` for none.
    public func budget(ofBytes count: Int, baudRate: Int?, pacing: Pacing, timeout: Duration?) -> Duration {
        let margin = timeout.map { max($0, minimumMargin) } ?? untimedMargin
        let paced = pacing.characterDelay * count + pacing.commandDelay
        return Self.wireTime(ofBytes: count, baudRate: baudRate) + paced + margin
    }
}
