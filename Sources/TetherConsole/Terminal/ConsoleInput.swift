import TetherTransfer

/// What the user did on the console's terminal, in the order it was typed.
public enum ConsoleInput: Equatable, Sendable {
    /// A line typed in line mode (without line end; may be empty).
    case line(String)
    /// Keys typed in raw mode, as bytes (the escape key's commands taken out).
    case keystrokes([UInt8])
    /// The escape key, then `key` (a ``LocalCommand``'s key, or an unknown one).
    case command(key: UInt8)
    /// The escape key, `f`, then a file's path (a leading `~` expanded).
    case sendFile(path: String)
    /// The escape key, `y` or `x`, then a file's path (a leading `~` expanded): send it
    /// by `protocol`. The terminal shows the transfer from now until
    /// ``ConsoleScreen/endTransfer()``.
    case sendByProtocol(path: String, protocol: TransferProtocol)
    /// The escape key, `Y`: receive files by `protocol` into the current folder. The
    /// terminal shows the transfer from now until ``ConsoleScreen/endTransfer()``.
    case receiveByProtocol(TransferProtocol)
    /// The escape key, `B`, then a baud rate as typed.
    case changeBaudRate(String)
    /// The escape key, `R`, then a reset sequence as typed (a name or esptool's steps).
    case runReset(String)
    /// The escape key, `w`, then bytes as hex pairs, as typed (``HexBytes``).
    case sendHex(String)
    /// Line mode: a console's prompt came and the device went quiet
    /// (``ConsoleScreen/holdTail(_:switchesToRaw:)``); the terminal has switched to raw
    /// mode.
    case promptSeen
    /// The input ended: Ctrl-D in line mode, or the terminal hung up.
    case end(hungUp: Bool)
}
