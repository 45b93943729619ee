import Glibc
import Synchronization
import TetherSimulator

/// What tether-sim writes, with `write(2)`, and how it ends: a failed write to standard
/// output stops the simulators (removing their links) and exits 74 with a message on
/// stderr (`Error: cannot write to standard output: No space left on device`), or 141
/// without one when the reader has gone (`EPIPE`, as a shell reports SIGPIPE).
enum SimOutput {
    /// The signals that end serving, each with exit code 128 + its number.
    static let stopSignals = [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM]

    /// The simulators serving, stopped on the way out.
    private static let simulators = Mutex<[Simulator]>([])
    /// Whether a thread is already ending the program (`exit` must run once).
    private static let isFinishing = Mutex(false)

    /// Records the simulators serving, for ``finish(_:)``.
    static func serving(_ serving: [Simulator]) {
        simulators.withLock { $0 = serving }
    }

    /// Writes `text` to standard output; a failure ends the program (exit 74, or 141).
    static func print(_ text: String) {
        guard let code = writeAll(STDOUT_FILENO, text) else { return }
        if code != EPIPE { error("Error: cannot write to standard output: \(String(cString: strerror(code)))\n") }
        finish(code == EPIPE ? 141 : 74)
    }

    /// Writes `text` to standard error; a failure there has nowhere to be reported.
    static func error(_ text: String) {
        _ = writeAll(STDERR_FILENO, text)
    }

    /// Stops the simulators (their links removed) and exits with `code`; a second
    /// thread that gets here waits for the first one's exit.
    static func finish(_ code: Int32) -> Never {
        let isFirst = isFinishing.withLock { finishing in
            defer { finishing = true }
            return !finishing
        }
        if isFirst {
            simulators.withLock { $0 }.forEach { $0.stop() }
            exit(code)
        }
        while true { pause() }
    }

    /// Writes all of `text` to `descriptor`, retrying after `EINTR`.
    ///
    /// - Returns: `nil`, or the `errno` of the write that failed.
    private static func writeAll(_ descriptor: Int32, _ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return written == 0 ? EIO : errno
                }
            }
            return nil
        }
    }
}
