/// Splits the bytes a host sends into command lines.
///
/// A line ends at CR, at LF or at CR LF (also when the CR and the LF arrive in separate
/// reads); empty lines are skipped, so CR LF never yields an extra line. A line longer
/// than ``maximumLength`` bytes is discarded up to its terminator and reported once as
/// ``Item/overflow``, so a host that never sends a terminator cannot grow memory.
/// Bytes that are not UTF-8 are decoded with replacement characters.
struct LineAssembler {
    /// A complete line, or the notice that one was too long.
    enum Item: Equatable {
        /// A line, without its terminator; never empty.
        case line(String)
        /// A line exceeded ``LineAssembler/maximumLength`` and was dropped.
        case overflow
    }

    /// The longest line kept, in bytes.
    static let maximumLength = 1024

    private var buffer: [UInt8] = []
    private var isDiscarding = false

    /// Adds received bytes.
    ///
    /// - Returns: The lines (and overflows) they completed, in order.
    mutating func append(_ bytes: [UInt8]) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
                if !isDiscarding && !buffer.isEmpty {
                    items.append(.line(String(decoding: buffer, as: UTF8.self)))
                }
                buffer.removeAll(keepingCapacity: true)
                isDiscarding = false
            } else if !isDiscarding {
                buffer.append(byte)
                if buffer.count > Self.maximumLength {
                    items.append(.overflow)
                    buffer.removeAll()
                    isDiscarding = true
                }
            }
        }
        return items
    }

    /// Forgets a partial line (a client closed the port in the middle of one).
    mutating func reset() {
        buffer.removeAll()
        isDiscarding = false
    }
}
