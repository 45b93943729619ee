import TetherModel

/// What line-mode `connect` says, once in a session, when a typed line got no reply
/// and nothing at all has come from the device since the port opened — most often a
/// line end the device does not take (a modem waits for CR, and `AT` sent with LF gets
/// `✗ no reply within 1000 ms`), or the wrong baud rate.
///
/// ```
/// hint: nothing received yet; try --eol cr or --eol crlf (a modem: --dialect at), and check --baud
/// ```
/// The line ends suggested are the ones not sent; `--dialect at` is suggested only
/// outside the `at` dialect.
public struct FirstContactHint: Sendable, Equatable {
    /// The hint's text, one line.
    public let text: String

    /// The hint for a session that ends commands with `terminator`, in the dialect named
    /// `dialect` (`--dialect`'s name).
    public init(sending terminator: Terminator, dialect: String) {
        let others = [Terminator.cr, .crlf, .lf].filter { $0 != terminator }.map { "--eol \($0.rawValue)" }
        let modem = dialect == "at" ? "" : " (a modem: --dialect at)"
        text = "hint: nothing received yet; try " + others.joined(separator: " or ") + modem + ", and check --baud"
    }
}
