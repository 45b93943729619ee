import Glibc
import TetherModel
import TetherViews

/// `connect` without a terminal (input from a pipe or a file, or JSON output): each
/// line is sent as a command in turn, its escapes decoded (``CommandText``) and its
/// other bytes exactly as they came, valid UTF-8 or not, and its reply awaited before
/// the next. An empty line is a command as a typed Enter on an
/// empty line is: the dialect's line end alone.
package enum PipedConsole {
    /// Why the input stopped.
    package enum End: Equatable, Sendable {
        /// The end of input (Ctrl-D on a terminal, the end of a file or pipe).
        case inputEnded
        /// The terminal typed on hung up.
        case hungUp
        /// A line's bad escape; it and the lines after it were not sent.
        case badEscape(CommandText.EscapeError)
    }

    /// Sends `lines` (each line's bytes, without its line end) with `send`, in turn.
    ///
    /// - Parameters:
    ///   - typesOnATerminal: the lines are typed on a terminal: a hint says how to
    ///     quit, and an end of input with the terminal gone is a hang-up (SIGHUP may
    ///     not have arrived yet).
    ///   - send: sends a command's bytes and returns once it has ended.
    package static func run(
        _ lines: AsyncStream<[UInt8]>, typesOnATerminal: Bool = isatty(STDIN_FILENO) == 1,
        send: (_ bytes: [UInt8]) async -> Void
    ) async -> End {
        if typesOnATerminal {
            FileSink.standardError.write("Type a command and press Enter; Ctrl-D or Ctrl-C quits.\n")
        }
        for await line in lines {
            do {
                await send(try CommandText.bytes(fromEscaped: line))
            } catch {
                return .badEscape(error)
            }
        }
        return typesOnATerminal && isatty(STDIN_FILENO) == 0 ? .hungUp : .inputEnded
    }
}
