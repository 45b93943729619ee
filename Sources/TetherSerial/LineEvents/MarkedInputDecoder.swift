import Glibc

/// Takes the termios `PARMRK` marking out of the bytes read from a local port,
/// incrementally.
///
/// With `PARMRK` set and `IGNBRK`, `BRKINT`, `IGNPAR` and `ISTRIP` clear (and `INPCK`
/// set, so framing and parity errors are checked), Linux's line discipline
/// (termios(3), "PARMRK") delivers
/// - a break as `\377 \0 \0`,
/// - a character `c` received with a framing or parity error as `\377 \0 c`,
/// - a data byte 0xFF as `\377 \377`,
/// and every other byte as itself. A NUL received with a framing error is marked as a
/// break is (`\377 \0 \0`): a break, which a UART usually reads as just that. The decoder gives back the data bytes exactly and
/// each marked condition as a ``MarkedInputDecoder/Mark`` at its place. A marking cut
/// across two reads is held until the next one; ``finish()`` gives back a marking cut
/// by the end of the stream as data. A `\377` followed by any other byte (which the
/// kernel never sends) is data, both bytes.
public struct MarkedInputDecoder: Sendable {
    /// A condition found in the stream.
    public enum Mark: Sendable, Hashable {
        /// `\377 \0 \0`.
        case lineBreak
        /// `\377 \0 c`: `c` came with a framing or parity error.
        case erroredByte(UInt8)
    }

    private enum State: Sendable {
        case data
        /// A `\377` was the last byte.
        case escape
        /// `\377 \0` were the last bytes.
        case marked
    }

    private var state = State.data

    /// Creates a decoder in its initial state.
    public init() {}

    /// Whether the decoder holds the start of a marking from an earlier read.
    public var holdsPartialMark: Bool { state != .data }

    /// Decodes the first `count` bytes of `buffer` in place: its data bytes are moved
    /// to its front.
    ///
    /// - Parameters:
    ///   - buffer: the bytes read, in its first `count` bytes; while
    ///     ``holdsPartialMark``, with one byte of room after them (a `\377` held from
    ///     the last read may turn out to be data before the first byte of this one).
    ///   - count: how many bytes were read.
    ///   - mark: called for each marked condition with how many data bytes of this
    ///     read come before it.
    /// - Returns: the number of data bytes now at the front of `buffer` (0 when the
    ///   read held only markings or the start of one).
    public mutating func decode(
        _ buffer: UnsafeMutableRawBufferPointer, count: Int, _ mark: (_ offset: Int, _ mark: Mark) -> Void
    ) -> Int {
        precondition(count <= buffer.count && (state != .escape || count < buffer.count), "no room after the read")
        var count = count
        var index = 0
        var written = 0
        guard let base = buffer.baseAddress, count > 0 else { return 0 }
        if state == .escape, buffer[0] != 0x00, buffer[0] != 0xFF {
            // A lone `\377` from the last read and a byte that is no marking: both are
            // data, one byte more than this read holds.
            memmove(base + 1, base, count)
            buffer[0] = 0xFF
            count += 1
            index = 2
            written = 2
            state = .data
        }
        while index < count {
            if state == .data {
                // The run of data up to the next 0xFF moves in one copy (a read without
                // 0xFF, the common one, does not move at all).
                let stop = memchr(base + index, 0xFF, count - index).map { base.distance(to: $0) } ?? count
                if written != index { memmove(base + written, base + index, stop - index) }
                written += stop - index
                index = stop
                if index < count {
                    index += 1
                    state = .escape
                }
                continue
            }
            let byte = buffer[index]
            index += 1
            if state == .marked {
                mark(written, byte == 0x00 ? .lineBreak : .erroredByte(byte))
            } else if byte == 0xFF {
                buffer[written] = 0xFF
                written += 1
            } else if byte == 0x00 {
                state = .marked
                continue
            } else {
                // Not a marking (the kernel never sends one): both bytes are data. Two
                // bytes were read for them, so they fit.
                buffer[written] = 0xFF
                buffer[written + 1] = byte
                written += 2
            }
            state = .data
        }
        return written
    }

    /// At the end of the stream: the bytes of a marking cut short, as data (`\377`
    /// or `\377 \0`), and the decoder back in its initial state.
    public mutating func finish() -> [UInt8] {
        defer { state = .data }
        switch state {
        case .data: return []
        case .escape: return [0xFF]
        case .marked: return [0xFF, 0x00]
        }
    }
}
