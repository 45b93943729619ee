import Synchronization
import TetherModel

/// What `connect` says, once in a session, when a line got no reply and nothing at all
/// has come from the device since the port opened — most often a line end the device
/// does not take (a modem waits for CR, and `AT` sent with LF gets `✗ no reply within
/// 1000 ms`), or the wrong baud rate.
///
/// ```
/// hint: nothing received yet; try --eol cr or --eol crlf (a modem: --dialect at), and check --baud
/// ```
/// The line ends suggested are the ones not sent; `--dialect at` is suggested only
/// outside the `at` dialect. Shared by the terminal's view and piped `connect`, which
/// tell it what came (``noteReceived()``) and when a line timed out (``afterTimeout()``).
public final class FirstContactHint: Sendable {
    /// The hint's text, one line.
    public let text: String
    private let state = Mutex((hasReceived: false, isSaid: false))

    /// The hint for a session that ends commands with `terminator`, in the dialect named
    /// `dialect` (`--dialect`'s name).
    public init(sending terminator: Terminator, dialect: String) {
        let others = [Terminator.cr, .crlf, .lf].filter { $0 != terminator }.map { "--eol \($0.rawValue)" }
        let modem = dialect == "at" ? "" : " (a modem: --dialect at)"
        text = "hint: nothing received yet; try " + others.joined(separator: " or ") + modem + ", and check --baud"
    }

    /// Notes that something came from the device: no hint from now on.
    public func noteReceived() {
        state.withLock { $0.hasReceived = true }
    }

    /// The hint's text after a line timed out, the first time, while nothing has been
    /// received; `nil` otherwise.
    public func afterTimeout() -> String? {
        state.withLock { state in
            defer { state.isSaid = true }
            return state.hasReceived || state.isSaid ? nil : text
        }
    }
}
