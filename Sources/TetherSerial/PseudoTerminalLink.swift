import Glibc

/// A private symbolic link to a pseudo-terminal slave, giving libserialport 0.1.1 a
/// name it can look up.
///
/// libserialport derives `/sys/class/tty/<name after "/dev/">` from the port name and
/// refuses `/dev/pts/N`, which has no sysfs entry (`SerialPortOpenTests.opensAPseudoTerminalByItsPath`). The name
/// `"/dev/../../.."` followed by this link's absolute path makes that lookup land on
/// the link itself (`/sys/class/tty/../../..` is `/`), and opening the name opens the
/// pty through the link. The link lives in its own `mkdtemp(3)` directory under
/// `$TMPDIR` (or `/tmp`) and is removed with ``remove()`` as soon as `sp_open` has
/// opened the port (libserialport needs the name for nothing else).
struct PseudoTerminalLink: Sendable {
    /// The link's absolute path, e.g. `/tmp/tether-pty-Ab12Cd/port`.
    let path: String
    private let directory: String

    /// The name to pass to `sp_get_port_by_name`.
    var libSerialPortName: String { "/dev/../../.." + path }

    /// Creates a link to `target` (an absolute, resolved `/dev/pts/N` path).
    ///
    /// - Parameters:
    ///   - target: the pty slave's path.
    ///   - portName: the port name as the user gave it, for errors.
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` if the directory or
    ///   link cannot be made.
    init(to target: String, portName: String) throws(SerialError) {
        let base = Self.temporaryDirectory()
        var template = Array("\(base)/tether-pty-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw SerialError.io(
                path: portName, function: "mkdtemp", errno: errno, message: String(cString: strerror(errno)))
        }
        directory = String(cString: made)
        path = directory + "/port"
        guard symlink(target, path) == 0 else {
            let code = errno
            rmdir(directory)
            throw SerialError.io(
                path: portName, function: "symlink", errno: code, message: String(cString: strerror(code)))
        }
    }

    /// Removes the link and its directory.
    func remove() {
        unlink(path)
        rmdir(directory)
    }

    /// `$TMPDIR` or `/tmp`, with links resolved so the path itself holds no link.
    private static func temporaryDirectory() -> String {
        let candidate = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        guard let resolved = realpath(candidate, nil) else { return "/tmp" }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
