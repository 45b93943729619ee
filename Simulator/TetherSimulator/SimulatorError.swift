import Glibc

/// Why a ``Simulator`` could not start.
///
/// `description` is a complete sentence meant for the user; `code` says which step
/// failed and `osError` holds the `errno` of the failing C call, when there was one.
public struct SimulatorError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The step that failed.
    public enum Code: Sendable, Equatable {
        /// `openpty` failed, or opening the slave failed.
        case pseudoTerminalUnavailable
        /// The `--link` path exists and is not a symbolic link; it was left untouched.
        case linkPathOccupied
        /// Creating the symbolic link (or replacing the old one) failed.
        case linkFailed
        /// The pipe used to wake the serving thread could not be created.
        case wakeUpPipeFailed
        /// The transcript file (`--log`) could not be created.
        case transcriptFailed
        /// The serving thread could not be started (`pthread_create` failed).
        case threadFailed
    }

    /// The step that failed.
    public let code: Code
    /// The `errno` of the failing C call, or `nil` when no call failed.
    public let osError: Int32?
    /// A message for the user, naming the path or call concerned.
    public let description: String

    init(_ code: Code, _ message: String, osError: Int32? = nil) {
        self.code = code
        self.osError = osError
        if let osError {
            self.description = "\(message): \(String(cString: strerror(osError)))"
        } else {
            self.description = message
        }
    }
}
