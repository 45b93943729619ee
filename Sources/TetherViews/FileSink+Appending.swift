import Glibc
import TetherLibC

extension FileSink {
    /// A file that could not be opened for writing.
    public struct OpenError: Error, Equatable, CustomStringConvertible {
        /// The path as given.
        public var path: String
        /// `strerror` of `open`'s errno, e.g. `No such file or directory`.
        public var reason: String

        public var description: String { "\(Quoted(path).bare): \(reason)" }
    }

    /// Opens `path` for appending, creating it (mode 0644, less the umask) when it is
    /// missing — the `--log FILE` destination.
    ///
    /// Appending keeps what earlier runs wrote: JSON Lines files concatenate, and each
    /// record names its time and port. Every record is written whole by one `write(2)`
    /// on a descriptor opened with `O_APPEND` — the records of one batch of a device's
    /// events share one (`DeviceView/renderBatch(_:)`) — with nothing held past the
    /// batch, so a record shown before tether crashes is in the file.
    ///
    /// The open never waits: a FIFO is opened only when a reader has it open already
    /// (`O_NONBLOCK`, which is cleared once the file is open, so that later writes wait
    /// for a slow reader as they would for a slow disk).
    ///
    /// - Parameters:
    ///   - path: the file, created (mode 0644 less the umask) when missing.
    ///   - onFailure: called once, with `strerror` of the errno, when a write
    ///     fails later (a full disk), or with `the file was deleted` when the file lost its
    ///     last link; the writes after it are dropped. Without it, a failed write ends
    ///     tether with exit code 74 after `Error: cannot write to PATH: …`.
    /// - Throws: ``OpenError`` when `open(2)` fails (no such directory, permission
    ///   denied, a directory, a FIFO that no process reads: `no process reads the FIFO`).
    public static func appending(
        toFile path: String, onFailure: (@Sendable (String) -> Void)? = nil
    ) throws(OpenError) -> FileSink {
        try opening(path, flags: O_APPEND, onFailure: onFailure)
    }

    /// Opens `path` for writing from its start, emptying it, creating it (mode 0644,
    /// less the umask) when it is missing — a report replaced by each run
    /// (`--junit FILE`). Otherwise as ``appending(toFile:onFailure:)``.
    ///
    /// - Throws: ``OpenError`` when `open(2)` fails.
    public static func replacing(
        file path: String, onFailure: (@Sendable (String) -> Void)? = nil
    ) throws(OpenError) -> FileSink {
        try opening(path, flags: O_TRUNC, onFailure: onFailure)
    }

    private static func opening(
        _ path: String, flags: Int32, onFailure: (@Sendable (String) -> Void)?
    ) throws(OpenError) -> FileSink {
        let descriptor = open(path, O_WRONLY | O_CREAT | flags | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            var status = stat()
            // open(2): ENXIO for O_NONBLOCK | O_WRONLY on a FIFO with no reader.
            let isFIFO = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
            let reason = code == ENXIO && isFIFO ? "no process reads the FIFO" : String(cString: strerror(code))
            throw OpenError(path: path, reason: reason)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        guard let onFailure else { return FileSink(descriptor: descriptor, name: path, endsOnFailure: true) }
        return FileSink(descriptor: descriptor, name: path, onFailure: onFailure)
    }
}
