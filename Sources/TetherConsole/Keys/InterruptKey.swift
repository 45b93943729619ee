/// The keys that raw mode sends as immediate writes (``ConsoleDevice/sendNow(_:)``),
/// ahead of whatever is queued or being written: Ctrl-C (0x03, ETX), the interrupt key
/// of a console's shell, U-Boot and most boot loaders — it must reach a device that is
/// busy with a command or printing a long dump now, not after the keys typed before it.
/// Every other key is sent in order (``ConsoleDevice/sendBytes(_:)``).
public enum InterruptKey {
    /// The bytes sent at once: Ctrl-C only.
    public static let bytes: Set<UInt8> = [0x03]

    /// A run of typed keys, as the console sends it.
    public enum Piece: Equatable, Sendable {
        /// Keys sent in order with everything else.
        case inOrder([UInt8])
        /// Interrupt keys, sent at once.
        case now([UInt8])
    }

    /// `keys` cut into runs of ordinary keys and runs of interrupt keys, in typed order:
    /// `a b 0x03 c` gives `inOrder([a, b])`, `now([0x03])`, `inOrder([c])`.
    public static func pieces(of keys: [UInt8]) -> [Piece] {
        var pieces: [Piece] = []
        var start = keys.startIndex
        while start < keys.endIndex {
            let isInterrupt = bytes.contains(keys[start])
            let end = keys[start...].firstIndex { bytes.contains($0) != isInterrupt } ?? keys.endIndex
            let run = Array(keys[start..<end])
            pieces.append(isInterrupt ? .now(run) : .inOrder(run))
            start = end
        }
        return pieces
    }
}
