import Glibc
import TetherLibC

/// Why a serial port operation failed.
///
/// Each case carries the path as the user gave it; ``io(path:function:errno:message:)``
/// also carries the libserialport function (or system call) that failed, the OS
/// `errno` and libserialport's message (`sp_last_error_message`).
public enum SerialError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No such file, or a dangling symlink.
    case notFound(path: String)
    /// The process may not open the node: not in the `dialout` group, or (`owner`
    /// given) a pseudo-terminal that belongs to that other user.
    case permissionDenied(path: String, owner: String? = nil)
    /// The path exists but is not a terminal device (a regular file, `/dev/null`).
    case notASerialPort(path: String)
    /// Another process holds the port's lock (`flock`). `holder` names it when found,
    /// e.g. `"picocom (pid 1234)"`.
    case busy(path: String, holder: String?)
    /// A configuration value is out of range; the message names the field.
    case invalidConfiguration(String)
    /// The port does not have every setting asked for (read back after the open; see
    /// ``SettingsReport``), and the caller required it to.
    case settingsNotApplied(path: String, [SettingMismatch])
    /// The device hung up or vanished (pty master closed, USB adapter unplugged).
    case disconnected(path: String)
    /// Any other failure of a libserialport function or system call.
    case io(path: String, function: String, errno: Int32, message: String)

    public var description: String {
        switch self {
        case .notFound(let path): "\(Quoted(path).bare): no such device"
        case .permissionDenied(let path, nil):
            "\(Quoted(path).bare): permission denied (is your user in the 'dialout' group?)"
        case .permissionDenied(let path, let owner?):
            "\(Quoted(path).bare): permission denied (a pseudo-terminal of user '\(owner)'; run tether as that user)"
        case .notASerialPort(let path): "\(Quoted(path).bare): not a serial port"
        case .busy(let path, let holder):
            "\(Quoted(path).bare): port busy (in use by \(holder ?? "another process"))"
        case .invalidConfiguration(let message): "invalid serial configuration: \(message)"
        case .settingsNotApplied(let path, let mismatches):
            "\(Quoted(path).bare): settings not applied: " + mismatches.map(\.description).joined(separator: "; ")
        case .disconnected(let path): "\(Quoted(path).bare): device disconnected"
        case .io(let path, let function, let errno, let message):
            "\(Quoted(path).bare): \(function) failed: \(message)\(errno != 0 ? " (errno \(errno))" : "")"
        }
    }
}
