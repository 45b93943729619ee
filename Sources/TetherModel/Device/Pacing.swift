/// Pauses in what a device is sent, for a receiver that loses bytes arriving too fast
/// (a UART without a FIFO, a microcontroller polling its line): `--char-delay` and
/// `--command-delay`.
///
/// The port loop keeps the time: a paced write goes out one byte (or one command) at
/// a time, the loop's `poll` waking when the next may go — no thread sleeps. A
/// command's terminator is one of its characters. After the last byte of a command or
/// a raw write (``Device/write(_:)``) the pause is the longer of the two delays, so the
/// next command waits for it too. Immediate writes (``Device/writeNow(_:)``) are never
/// paced.
public struct Pacing: Sendable, Equatable {
    /// The pause after each byte, before the next one.
    public var characterDelay: Duration
    /// The pause after each command or raw write, before the next one's first byte.
    public var commandDelay: Duration

    /// Creates a pacing; both delays default to zero (no pacing).
    public init(characterDelay: Duration = .zero, commandDelay: Duration = .zero) {
        self.characterDelay = characterDelay
        self.commandDelay = commandDelay
    }

    /// Whether there is any pause at all.
    public var isPaced: Bool { characterDelay > .zero || commandDelay > .zero }
}
