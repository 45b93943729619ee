/// tether's exit codes: distinct, stable, and documented in the README
/// (`sysexits.h` values where one fits).
package enum ExitCode: Int32, Comparable, CaseIterable {
    /// Everything worked and every expectation held.
    case success = 0
    /// The device answered with an error reply, or an expectation failed.
    case expectationFailed = 1
    /// Bad command line: unknown option, bad value, missing argument (`EX_USAGE`).
    case usage = 64
    /// A script could not be run: syntax or runtime error (`EX_DATAERR`).
    case scriptError = 65
    /// The port does not exist: no such file, or a dangling link (`EX_NOINPUT`).
    case portNotFound = 66
    /// The port exists but cannot be used: not a serial port, permission denied, or
    /// busy (held by another process) (`EX_UNAVAILABLE`).
    case portUnavailable = 69
    /// The `--log` file cannot be opened for writing (`EX_CANTCREAT`).
    case cannotCreateLog = 73
    /// An I/O error, or the device disconnected (`EX_IOERR`).
    case ioError = 74
    /// A request got no reply in time (`EX_TEMPFAIL`).
    case timeout = 75
    /// A file transfer failed on the line: the peer cancelled (CAN CAN), a block was
    /// sent again too many times, or the peer broke the protocol (`EX_PROTOCOL`).
    case transferFailed = 76
    /// With `--strict-settings`: the port does not have a serial setting asked for
    /// (`EX_CONFIG`).
    case settingsNotApplied = 78
    /// The `--elf` file cannot be read: missing, unreadable or not an ELF file (no
    /// `sysexits.h` value says so).
    case elfUnreadable = 79
    /// Ended by SIGHUP (128 + 1).
    case hangUpSignal = 129
    /// Ended by SIGINT / Ctrl-C (128 + 2).
    case interrupted = 130
    /// Ended by SIGQUIT / Ctrl-\\ (128 + 3).
    case quitSignal = 131
    /// Ended by a SIGABRT another process sent (`kill -ABRT`) (128 + 6).
    case abortSignal = 134
    /// Ended by SIGTERM (128 + 15).
    case terminated = 143

    /// How bad an outcome is, for choosing the exit code of a run with several
    /// outcomes: device loss beats timeouts, which beat error replies.
    private var severity: Int {
        switch self {
        case .success: 0
        case .expectationFailed: 1
        case .timeout: 2
        case .ioError: 3
        default: 4
        }
    }

    package static func < (lhs: ExitCode, rhs: ExitCode) -> Bool { lhs.severity < rhs.severity }
}
